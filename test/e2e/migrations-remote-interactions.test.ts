import { migrateToLatest } from '@plaza/adapters-mysql';
import { plazaMigrations } from '@plaza/server';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openEmptyTestDatabase, type TestDatabase } from '../support/database.js';

/**
 * 20261127_inbound_remote_interactions on a database with rows (docs/decisions/0205): comments keep
 * their rows, replies and indexes while user_id becomes nullable (SQLite rebuilds the table), and
 * remote HTML stored before the allowlist is sanitised.
 */
const MIGRATION = '20261127_inbound_remote_interactions';
let database: TestDatabase;
beforeAll(async () => {
  database = await openEmptyTestDatabase();
});
afterAll(() => database.drop());

it('keeps every comment and its thread, lets a comment have no local author, and sanitises stored remote HTML', async () => {
  const all = plazaMigrations();
  const before = Object.fromEntries(Object.entries(all).filter(([name]) => name !== MIGRATION));
  await migrateToLatest(database.db, database.dialect, before);
  const db = database.db as any;
  const at = '2026-11-27 10:00:00';
  await db.insertInto('users').values({ id: 1, username: 'ann', email: 'ann@example.org', password_hash: 'x', created_at: at }).execute();
  await db.insertInto('posts').values({ id: 1, user_id: 1, content: 'p', media: '[]', tags: '[]', created_at: at }).execute();
  await db.insertInto('comments').values({ id: 1, post_id: 1, user_id: 1, parent_id: null, content: 'root', created_at: at }).execute();
  await db.insertInto('comments').values({ id: 2, post_id: 1, user_id: 1, parent_id: 1, content: 'reply', created_at: at }).execute();
  await db
    .insertInto('remote_posts')
    .values({
      object_id: 'https://r.example/n/1',
      actor_url: 'https://r.example/u',
      url: 'https://r.example/n/1',
      content: '<p onclick="x()">hi<script>alert(1)</script></p>',
      published_at: at,
      created_at: at,
    })
    .execute();

  expect(await migrateToLatest(database.db, database.dialect, all)).toEqual([MIGRATION]);

  const comments = await db.selectFrom('comments').select(['id', 'post_id', 'user_id', 'parent_id', 'content']).orderBy('id').execute();
  expect(comments).toEqual([
    { id: 1, post_id: 1, user_id: 1, parent_id: null, content: 'root' },
    { id: 2, post_id: 1, user_id: 1, parent_id: 1, content: 'reply' },
  ]);
  await db
    .insertInto('comments')
    .values({
      post_id: 1,
      user_id: null,
      parent_id: 1,
      content: 'remote',
      created_at: at,
      remote_actor_url: 'https://r.example/u',
      remote_object_id: 'https://r.example/n/2',
    })
    .execute();
  // The Note id is unique; the thread's cascade still holds (deleting the root takes its replies).
  await expect(
    db
      .insertInto('comments')
      .values({
        post_id: 1,
        user_id: null,
        content: 'again',
        created_at: at,
        remote_actor_url: 'https://r.example/u',
        remote_object_id: 'https://r.example/n/2',
      })
      .execute(),
  ).rejects.toThrow();
  await db.deleteFrom('comments').where('id', '=', 1).execute();
  expect(await db.selectFrom('comments').select('id').execute()).toEqual([]);
  const [note] = await db.selectFrom('remote_posts').select('content').execute();
  expect(note.content).toBe('<p>hi</p>');
});
