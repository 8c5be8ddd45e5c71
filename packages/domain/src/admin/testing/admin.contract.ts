import { describe, expect, it } from 'vitest';
import type { UserRepository } from '../../accounts/ports.js';
import { aNewUser } from '../../accounts/testing/mothers.js';
import type { MediaServerValues, TurnValues } from '../model.js';
import type { AdminRoster, AdminSessionStore, MediaServerSettingsStore, TurnSettingsStore } from '../ports.js';

export interface AdminPorts {
  users: UserRepository;
  roster: AdminRoster;
  sessions: AdminSessionStore;
  media: MediaServerSettingsStore;
  turn: TurnSettingsStore;
}

const page = (p = 1, perPage = 20) => ({ page: p, perPage });

/** The admin panel's ports, held to the same behaviour in memory, on SQL and on files. */
export function adminContract(name: string, make: () => Promise<AdminPorts>) {
  describe(`${name}: admin ports`, () => {
    it('searches accounts by username or e-mail prefix, case-insensitively, by username, a page at a time', async () => {
      const { users, roster } = await make();
      const tag = `r${Math.floor(Math.random() * 1e6)}`;
      const b = await users.create(aNewUser({ username: `${tag}_bob`, email: `bob.${tag}@example.test` }));
      const a = await users.create(aNewUser({ username: `${tag}_Alice`, email: `alice.${tag}@example.test`, is_admin: true }));
      await users.create(aNewUser({ username: `${tag}_carol`, email: `carol.${tag}@example.test` }));
      const first = await roster.search(tag.toUpperCase(), page(1, 2));
      expect(first.items.map((u) => u.id)).toEqual([a.id, b.id]);
      expect(first.more).toBe(true);
      expect(first.items[0]).toEqual({
        id: a.id,
        username: `${tag}_Alice`,
        email: `alice.${tag}@example.test`,
        is_admin: true,
        is_technician: false,
        is_moderator: false,
        created_at: a.created_at,
      });
      const second = await roster.search(tag, page(2, 2));
      expect(second.items.map((u) => u.username)).toEqual([`${tag}_carol`]);
      expect(second.more).toBe(false);
      expect((await roster.search(`bob.${tag}@`, page())).items.map((u) => u.id)).toEqual([b.id]);
      expect((await roster.search(`zz${tag}`, page())).items).toEqual([]);
      expect((await roster.search(null, page(1, 100))).items.length).toBeGreaterThanOrEqual(3);
    });

    it('promotes once, and withdraws only while another admin remains, for an admin', async () => {
      const { users, roster } = await make();
      const a = await users.create(aNewUser({ is_admin: true }));
      const b = await users.create(aNewUser());
      const c = await users.create(aNewUser());
      // Other tests' admins may share the database: withdraw them through `a` until only `a` is left.
      for (const u of (await roster.search(null, page(1, 1000))).items) if (u.is_admin && u.id !== a.id) await roster.withdraw(u.id, a.id);
      expect(await roster.withdraw(a.id, a.id)).toBe('last_admin');
      expect(await roster.promote(b.id)).toBe(true);
      expect(await roster.promote(b.id)).toBe(false);
      expect(await roster.promote(999_999)).toBe(false);
      expect((await users.findById(b.id))?.is_admin).toBe(true);
      expect(await roster.withdraw(c.id, a.id)).toBe('not_admin');
      expect(await roster.withdraw(a.id, c.id)).toBe('not_allowed');
      expect(await roster.withdraw(a.id, a.id)).toBe('withdrawn');
      expect((await users.findById(a.id))?.is_admin).toBe(false);
      expect(await roster.withdraw(b.id, b.id)).toBe('last_admin');
      expect((await users.findById(b.id))?.is_admin).toBe(true);
    });

    it('keeps sessions until they expire, replaces and deletes them', async () => {
      const { sessions } = await make();
      const key = 'k'.repeat(63) + Math.floor(Math.random() * 10);
      expect(await sessions.get(key, '2026-01-01 00:00:00')).toBeNull();
      await sessions.put(key, '{"a":1}', '2026-01-01 08:00:00');
      expect(await sessions.get(key, '2026-01-01 07:59:59')).toBe('{"a":1}');
      await sessions.put(key, '{"a":2}', '2026-01-01 09:00:00');
      expect(await sessions.get(key, '2026-01-01 08:30:00')).toBe('{"a":2}');
      expect(await sessions.get(key, '2026-01-01 09:00:00')).toBeNull();
      expect(await sessions.deleteExpired('2026-01-01 09:00:00')).toBeGreaterThanOrEqual(1);
      await sessions.put(key, '{"a":3}', '2026-01-01 09:00:00');
      await sessions.delete(key);
      expect(await sessions.get(key, '2026-01-01 00:00:00')).toBeNull();
    });

    it('reads back what it wrote, for the media server and the TURN relay', async () => {
      const { media, turn } = await make();
      expect(await media.read()).toBeNull();
      expect(await turn.read()).toBeNull();
      const m: MediaServerValues = {
        url: 'wss://media.example.org',
        api_key: "key'with\\quote",
        api_secret: 'a secret with "quotes" and $dollar',
      };
      await media.write(m);
      expect(await media.read()).toEqual(m);
      const t: TurnValues = {
        urls: ['turn:turn.example.org:3478', 'turns:turn.example.org:5349'],
        secret: 's'.repeat(32),
        ttl: 3600,
        realm: 'turn.example.org',
      };
      await turn.write(t);
      expect(await turn.read()).toEqual(t);
      await turn.write({ ...t, realm: null });
      expect(await turn.read()).toEqual({ ...t, realm: null });
      expect(media.location).toMatch(/\S/);
    });
  });
}
