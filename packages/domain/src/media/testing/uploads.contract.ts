import { describe, expect, it } from 'vitest';
import type { UserRepository } from '../../accounts/ports.js';
import { aNewUser } from '../../accounts/testing/mothers.js';
import type { NewUpload, UploadRegistry } from '../uploads.js';

export interface UploadRegistryPorts {
  users: UserRepository;
  registry: UploadRegistry;
}

/** A path no other test of the suite uses (the SQL database is shared by the file's tests). */
const aPath = (prefix = 'uploads/posts/media_') => `${prefix}${Math.random().toString(16).slice(2, 14)}.jpg`;

/** `UploadRegistry`: the uploads table, the same in memory and on SQL (docs/decisions/0114). */
export function uploadRegistryContract(name: string, make: () => Promise<UploadRegistryPorts>) {
  describe(`${name}: upload registry contract`, () => {
    const upload = (owner_id: number, over: Partial<NewUpload> = {}): NewUpload => ({
      owner_id,
      type: 'posts',
      path: aPath(),
      size: 1234,
      sha256: 'ab'.repeat(32),
      created_at: '2026-03-01 10:00:00',
      ...over,
    });

    it('records an upload and finds it by its path; a path is recorded once', async () => {
      const { users, registry } = await make();
      const u = await users.create(aNewUser());
      const made = await registry.record(upload(u.id, { type: 'avatar', path: aPath('uploads/avatar_') }));
      expect(made).toEqual({
        id: expect.any(Number),
        owner_id: u.id,
        type: 'avatar',
        path: made.path,
        size: 1234,
        sha256: 'ab'.repeat(32),
        created_at: '2026-03-01 10:00:00',
        referenced_at: null,
        erased_at: null,
      });
      expect(await registry.findByPath(made.path)).toEqual(made);
      expect(await registry.findByPath(`${made.path}x`)).toBeNull();
      await expect(registry.record(upload(u.id, { path: made.path }))).rejects.toThrow();
      const adopted = await registry.record(upload(u.id, { size: null, sha256: null }));
      expect(await registry.findByPath(adopted.path)).toMatchObject({ size: null, sha256: null });
    });

    it('marks an upload referenced once, keeping the first time; false when the record is gone', async () => {
      const { users, registry } = await make();
      const u = await users.create(aNewUser());
      const made = await registry.record(upload(u.id));
      expect(await registry.markReferenced(made.id, '2026-03-02 00:00:00')).toBe(true);
      expect(await registry.markReferenced(made.id, '2026-03-03 00:00:00')).toBe(true);
      expect((await registry.findByPath(made.path))?.referenced_at).toBe('2026-03-02 00:00:00');
      expect(await registry.markReferenced(made.id + 100_000, '2026-03-02 00:00:00')).toBe(false);
    });

    it('lists the unreferenced uploads older than a time, oldest first and bounded, and removes only what is still collectable', async () => {
      const { users, registry } = await make();
      const u = await users.create(aNewUser());
      // Older than anything the other tests record, so that they come first in a shared database.
      const old1 = await registry.record(upload(u.id, { created_at: '2001-01-01 00:00:01' }));
      const old2 = await registry.record(upload(u.id, { created_at: '2001-01-01 00:00:02' }));
      const referenced = await registry.record(upload(u.id, { created_at: '2001-01-01 00:00:00' }));
      const young = await registry.record(upload(u.id, { created_at: '2001-01-02 00:00:00' }));
      await registry.markReferenced(referenced.id, '2001-01-01 00:00:05');
      const before = '2001-01-01 12:00:00';
      expect((await registry.unreferencedBefore(before, 10)).map((r) => r.id)).toEqual([old1.id, old2.id]);
      expect((await registry.unreferencedBefore(before, 1)).map((r) => r.id)).toEqual([old1.id]);

      expect(await registry.removeCollectable(referenced.id, before)).toBe(false);
      expect(await registry.removeCollectable(young.id, before)).toBe(false);
      expect(await registry.removeCollectable(old1.id, before)).toBe(true);
      expect(await registry.removeCollectable(old1.id, before)).toBe(false);
      expect(await registry.findByPath(old1.path)).toBeNull();
      expect(await registry.findByPath(referenced.path)).not.toBeNull();
      expect(await registry.findByPath(young.path)).not.toBeNull();
      // A reference accepted after the listing wins: the record (and so the file) stays.
      await registry.markReferenced(old2.id, '2001-01-01 13:00:00');
      expect(await registry.removeCollectable(old2.id, before)).toBe(false);
      // And a record removed first cannot be marked: the reference is refused.
      const old3 = await registry.record(upload(u.id, { created_at: '2001-01-01 00:00:03' }));
      expect(await registry.removeCollectable(old3.id, before)).toBe(true);
      expect(await registry.markReferenced(old3.id, '2001-01-01 13:00:00')).toBe(false);
    });

    it('marks every upload of an erased owner, referenced or not, and lets them be removed', async () => {
      const { users, registry } = await make();
      const [gone, stays] = [await users.create(aNewUser()), await users.create(aNewUser())];
      const a = await registry.record(upload(gone.id));
      const b = await registry.record(upload(gone.id));
      const other = await registry.record(upload(stays.id));
      await registry.markReferenced(a.id, '2026-03-02 00:00:00');
      expect(await registry.eraseOwner(gone.id, '2026-03-05 00:00:00')).toBe(2);
      expect(await registry.eraseOwner(gone.id, '2026-03-06 00:00:00')).toBe(0);
      expect((await registry.findByPath(a.path))?.erased_at).toBe('2026-03-05 00:00:00');
      expect((await registry.findByPath(other.path))?.erased_at).toBeNull();
      const erased = (await registry.erased(1000)).map((r) => r.id);
      expect(erased).toEqual(expect.arrayContaining([a.id, b.id]));
      expect(erased).not.toContain(other.id);
      // Erased uploads are no orphans: the other query does not list them.
      expect((await registry.unreferencedBefore('2030-01-01 00:00:00', 1000)).map((r) => r.id)).not.toContain(b.id);
      expect(await registry.removeCollectable(a.id, '2000-01-01 00:00:00')).toBe(true);
      expect(await registry.removeCollectable(other.id, '2000-01-01 00:00:00')).toBe(false);
      expect(await registry.findByPath(a.path)).toBeNull();
    });
  });
}
