import { describe, expect, it } from 'vitest';
import type { UserRepository } from '../../accounts/ports.js';
import { aNewUser } from '../../accounts/testing/mothers.js';
import type { AlbumRepository } from '../ports.js';

export interface AlbumsPorts {
  users: UserRepository;
  albums: AlbumRepository;
}

/** Albums and photos: the same in memory and on SQL. */
export function albumsContract(name: string, make: () => Promise<AlbumsPorts>) {
  describe(`${name}: albums`, () => {
    it('creates albums, lists a user’s newest first, adds photos in order with a cover, deletes with the photos', async () => {
      const { users, albums } = await make();
      const [a, b] = [await users.create(aNewUser()), await users.create(aNewUser())];
      const first = await albums.create({ user_id: a.id, title: 'Manif', description: 'd', created_at: '2026-01-01 00:00:00' });
      const second = await albums.create({ user_id: a.id, title: 'Fête', description: '', created_at: '2026-01-02 00:00:00' });
      await albums.create({ user_id: b.id, title: 'Other', description: '', created_at: '2026-01-02 00:00:00' });
      expect(first).toEqual({
        id: expect.any(Number),
        user_id: a.id,
        title: 'Manif',
        description: 'd',
        photos_count: 0,
        cover: null,
        created_at: '2026-01-01 00:00:00',
        updated_at: null,
      });
      expect(await albums.findById(first.id)).toEqual(first);
      expect(await albums.findById(first.id + 1000)).toBeNull();
      expect(await albums.listByUser(a.id, { page: 1, perPage: 1 })).toEqual({ items: [second], total: 2 });
      expect((await albums.listByUser(a.id, { page: 2, perPage: 1 })).items.map((x) => x.id)).toEqual([first.id]);

      await albums.lock(first.id);
      const p1 = await albums.addPhoto({
        album_id: first.id,
        user_id: a.id,
        path: 'uploads/albums/album_a1.jpg',
        caption: 'one',
        created_at: '2026-01-03 00:00:00',
      });
      const p2 = await albums.addPhoto({
        album_id: first.id,
        user_id: a.id,
        path: 'uploads/albums/album_a2.jpg',
        caption: '',
        created_at: '2026-01-04 00:00:00',
      });
      expect(p1).toEqual({
        id: expect.any(Number),
        album_id: first.id,
        user_id: a.id,
        path: 'uploads/albums/album_a1.jpg',
        caption: 'one',
        created_at: '2026-01-03 00:00:00',
      });
      expect(await albums.findById(first.id)).toMatchObject({
        photos_count: 2,
        cover: 'uploads/albums/album_a1.jpg',
        updated_at: '2026-01-04 00:00:00',
      });
      expect(await albums.photos(first.id, { page: 1, perPage: 20 })).toEqual({ items: [p1, p2], total: 2 });
      expect((await albums.photos(first.id, { page: 2, perPage: 1 })).items).toEqual([p2]);

      await albums.delete(first.id);
      expect(await albums.findById(first.id)).toBeNull();
      expect(await albums.photos(first.id, { page: 1, perPage: 20 })).toEqual({ items: [], total: 0 });
      expect((await albums.listByUser(a.id, { page: 1, perPage: 20 })).total).toBe(1);
    });
  });
}
