import { migrateToLatest } from '@plaza/adapters-mysql';
import { SqlUserRepository } from '@plaza/adapters-mysql/accounts';
import { aNewUser } from '@plaza/domain/accounts/testing';
import { plazaMigrations } from '@plaza/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEmptyTestDatabase, type TestDatabase } from '../support/database.js';

/** A database from before owned uploads (docs/decisions/0114) is upgraded: files its records reference are adopted. */
let database: TestDatabase;
beforeAll(async () => {
  database = await openEmptyTestDatabase();
});
afterAll(() => database.drop());

const MEDIA = /^20261127_media_/;

describe('adopting uploads stored before the uploads table', () => {
  it('records every referenced file once, owned by the account of the first record naming it, and skips what is no upload', async () => {
    const all = plazaMigrations();
    expect(
      Object.keys(all)
        .filter((name) => MEDIA.test(name))
        .sort(),
    ).toEqual(['20261127_media_uploads', '20261127_media_uploads_adopted']);
    await migrateToLatest(database.db, database.dialect, Object.fromEntries(Object.entries(all).filter(([name]) => !MEDIA.test(name))));
    const db = database.db as any;
    const users = new SqlUserRepository(database.db);
    const [a, b] = [await users.create(aNewUser()), await users.create(aNewUser())];
    const at = '2026-05-01 10:00:00';
    await db.updateTable('users').set({ avatar: 'uploads/avatar_olda.jpg', banner: 'default.svg' }).where('id', '=', a.id).execute();
    await db
      .insertInto('posts')
      .values({
        user_id: a.id,
        content: 'old',
        media: JSON.stringify(['media_old1.jpg', 'media_old2.mp4']),
        media_type: 'image',
        tags: '[]',
        created_at: at,
      })
      .execute();
    // b's post names a's file (before this change anyone could): the first record found owns it.
    await db
      .insertInto('posts')
      .values({
        user_id: b.id,
        content: 'copy',
        media: JSON.stringify(['media_old1.jpg', 'https://elsewhere.example/x.jpg']),
        media_type: 'image',
        tags: '[]',
        created_at: at,
      })
      .execute();
    await db.insertInto('stories').values({ user_id: b.id, media: 'story_oldb.jpg', text: '', created_at: at, expires_at: at }).execute();
    const album = await db.insertInto('albums').values({ user_id: b.id, title: 'Old', description: '', created_at: at }).executeTakeFirst();
    await db
      .insertInto('album_photos')
      .values({ album_id: Number(album.insertId), user_id: b.id, path: 'uploads/albums/album_oldb.jpg', caption: '', created_at: at })
      .execute();

    const ran = await migrateToLatest(database.db, database.dialect, all);
    expect([...ran].sort()).toEqual(['20261127_media_uploads', '20261127_media_uploads_adopted']);
    const rows = await db
      .selectFrom('uploads')
      .select(['owner_id', 'type', 'path', 'size', 'sha256', 'referenced_at'])
      .orderBy('path')
      .execute();
    expect(rows.map((r: { path: string; owner_id: number; type: string }) => [r.path, Number(r.owner_id), r.type])).toEqual([
      ['uploads/albums/album_oldb.jpg', b.id, 'album'],
      ['uploads/avatar_olda.jpg', a.id, 'avatar'],
      ['uploads/posts/media_old1.jpg', a.id, 'posts'],
      ['uploads/posts/media_old2.mp4', a.id, 'posts'],
      ['uploads/stories/story_oldb.jpg', b.id, 'stories'],
    ]);
    // Adopted rows are referenced (never orphans) and carry no digest.
    for (const r of rows) expect(r).toMatchObject({ size: null, sha256: null, referenced_at: expect.any(String) });
  }, 180_000);
});
