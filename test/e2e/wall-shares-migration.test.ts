import { migrateToLatest } from '@plaza/adapters-mysql';
import { SqlUserRepository } from '@plaza/adapters-mysql/accounts';
import { SqlPostEngagementRepository, SqlPostRepository } from '@plaza/adapters-mysql/content';
import { aNewUser } from '@plaza/domain/accounts/testing';
import { plazaMigrations } from '@plaza/server';
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEmptyTestDatabase, type TestDatabase } from '../support/database.js';

/** docs/decisions/0230: the migrations that let a wall entry (and its timeline rows) name a group's or page's post. */
const MIGRATIONS = ['20261127_wallshares_timeline_post_type', '20261127_wallshares_wall_entry_post_type'];

let database: TestDatabase;
beforeAll(async () => {
  database = await openEmptyTestDatabase();
});
afterAll(() => database.drop());

describe(MIGRATIONS.join(', '), () => {
  it('keeps every entry and timeline row under its id as a wall post’s, and drops the foreign key to posts', async () => {
    const all = plazaMigrations();
    const before = Object.fromEntries(Object.entries(all).filter(([name]) => !MIGRATIONS.includes(name)));
    await migrateToLatest(database.db, database.dialect, before);
    const { db, dialect } = database;
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
    const shareEntry = await new SqlPostEngagementRepository(db, dialect).share(post.id, b.id, '2026-01-01 00:00:01');
    // b's timeline before the migration, as the released schema had it: both entries (the post's and the share's).
    const untyped = db as unknown as Kysely<any>;
    await untyped.insertInto('home_timeline_state').values({ user_id: b.id, ready: 1 }).execute();
    for (const [entryId, ownerId, isShare] of [
      [post.wall_entry_id, a.id, 0],
      [shareEntry, b.id, 1],
    ] as const) {
      await untyped
        .insertInto('home_timeline')
        .values({
          user_id: b.id,
          entry_id: entryId,
          post_id: post.id,
          owner_id: ownerId,
          is_share: isShare,
          created_at: '2026-01-01 00:00:01',
        })
        .execute();
    }
    const timeline = () =>
      db.selectFrom('home_timeline').select(['entry_id', 'post_id']).where('user_id', '=', b.id).orderBy('entry_id').execute();
    const entriesBefore = await db.selectFrom('wall_entries').select(['id', 'user_id', 'post_id', 'is_share']).orderBy('id').execute();
    expect(entriesBefore.map((e) => e.id)).toEqual([post.wall_entry_id, shareEntry]);
    const timelineBefore = await timeline();
    expect(timelineBefore).toHaveLength(2);

    expect((await migrateToLatest(db, dialect, all)).sort()).toEqual(MIGRATIONS);
    const entriesAfter = await db
      .selectFrom('wall_entries')
      .select(['id', 'user_id', 'post_type', 'post_id', 'is_share'])
      .orderBy('id')
      .execute();
    expect(entriesAfter).toEqual(entriesBefore.map((e) => ({ ...e, post_type: 'post' })));
    // The SQLite rebuild did not empty the timeline by cascade, and its rows are wall posts'.
    expect(await timeline()).toEqual(timelineBefore);
    expect(await db.selectFrom('home_timeline').select('post_type').distinct().execute()).toEqual([{ post_type: 'post' }]);

    // An entry may now name a group post (an id posts does not have), and still cascades from its entry to the timeline.
    await db
      .insertInto('wall_entries')
      .values({ user_id: b.id, post_type: 'group', post_id: 99_999, is_share: 1, created_at: '2026-01-01 00:00:02' })
      .execute();
    // The foreign keys that remain still hold: an entry of an unknown user is refused.
    await expect(
      db.insertInto('wall_entries').values({ user_id: 99_999, post_id: post.id, is_share: 0, created_at: '2026-01-01 00:00:03' }).execute(),
    ).rejects.toThrow();
    if (dialect === 'sqlite') expect((await sql`pragma foreign_key_check`.execute(db)).rows).toEqual([]);

    // Deleting the wall post takes its entries and their timeline rows, not the group post's entry.
    await posts.delete(post.id);
    expect(await db.selectFrom('wall_entries').select(['post_type', 'post_id']).execute()).toEqual([
      { post_type: 'group', post_id: 99_999 },
    ]);
    expect(await timeline()).toEqual([]);
  });
});
