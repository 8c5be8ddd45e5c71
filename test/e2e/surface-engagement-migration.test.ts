import type { Kysely } from 'kysely';
import { migrateToLatest } from '@plaza/adapters-mysql';
import { SqlUserRepository } from '@plaza/adapters-mysql/accounts';
import { SqlPostRepository } from '@plaza/adapters-mysql/content';
import { aNewUser } from '@plaza/domain/accounts/testing';
import { plazaMigrations } from '@plaza/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEmptyTestDatabase, type TestDatabase } from '../support/database.js';

/** docs/decisions/0195: the migration that adds post_type to the bookmark and share keys. */
const MIGRATION = '20261127_surfaces_bookmark_share_post_type';

let database: TestDatabase;
beforeAll(async () => {
  database = await openEmptyTestDatabase();
});
afterAll(() => database.drop());

describe(MIGRATION, () => {
  it("keeps every existing row as a wall post's, under its key, and frees the key for other kinds", async () => {
    const all = plazaMigrations();
    const before = Object.fromEntries(Object.entries(all).filter(([name]) => name !== MIGRATION));
    await migrateToLatest(database.db, database.dialect, before);
    const { db } = database;
    const users = new SqlUserRepository(db);
    const posts = new SqlPostRepository(db);
    const [a, b] = [await users.create(aNewUser()), await users.create(aNewUser())];
    const post = await posts.create({
      user_id: a.id,
      content: 'x',
      media: [],
      media_type: null,
      tags: [],
      created_at: '2026-01-01 00:00:00',
    });
    // Written as the released schema had them: no post_type column yet.
    const untyped = db as unknown as Kysely<any>;
    await untyped.insertInto('bookmarks').values({ user_id: b.id, post_id: post.id, created_at: '2026-01-01 00:00:01' }).execute();
    await untyped.insertInto('shares').values({ user_id: b.id, post_id: post.id, created_at: '2026-01-01 00:00:02' }).execute();

    expect(await migrateToLatest(db, database.dialect, all)).toEqual([MIGRATION]);
    expect(await db.selectFrom('bookmarks').selectAll().execute()).toEqual([
      { user_id: b.id, post_type: 'post', post_id: post.id, created_at: '2026-01-01 00:00:01' },
    ]);
    expect(await db.selectFrom('shares').selectAll().execute()).toEqual([
      { post_type: 'post', post_id: post.id, user_id: b.id, created_at: '2026-01-01 00:00:02' },
    ]);
    // The key includes the kind: the same ids as a group post's are another row; the same wall row is refused.
    await db
      .insertInto('bookmarks')
      .values({ user_id: b.id, post_type: 'group', post_id: post.id, created_at: '2026-01-01 00:00:03' })
      .execute();
    await expect(
      db.insertInto('bookmarks').values({ user_id: b.id, post_id: post.id, created_at: '2026-01-01 00:00:04' }).execute(),
    ).rejects.toThrow();
    // Deleting the wall post takes its bookmarks and shares (no foreign key does it any more), not the group post's.
    await posts.delete(post.id);
    expect(await db.selectFrom('bookmarks').select('post_type').execute()).toEqual([{ post_type: 'group' }]);
    expect(await db.selectFrom('shares').selectAll().execute()).toEqual([]);
  });
});
