import SqliteDatabase from 'better-sqlite3';
import { Kysely, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { BATCH, chunks, ownedRows } from './batches.js';
import type { Database } from './database.js';
import { fairSqliteDialect } from './fair-sqlite.js';

// Only the columns the queries touch: the exports' own tests run on the migrated schema.
async function openDb() {
  const db = new Kysely<Database>({ dialect: fairSqliteDialect(new SqliteDatabase(':memory:')) });
  await sql`create table events (id integer primary key, creator_id integer, title text, image text)`.execute(db);
  await sql`create table shares (user_id integer, post_id integer, created_at text, primary key (user_id, post_id))`.execute(db);
  return db;
}

async function all<R>(rows: AsyncIterable<R>): Promise<R[]> {
  const out: R[] = [];
  for await (const row of rows) out.push(row);
  return out;
}

describe('ownedRows', () => {
  it('streams every row of the owner past one batch, in key order, with only the columns asked for', async () => {
    const db = await openDb();
    const total = 2 * BATCH + 1;
    // Two owners' rows interleaved: each batch must skip the other owner's rows, not stop at them.
    for (const ids of chunks(Array.from({ length: 2 * total }, (_, i) => i + 1))) {
      const values = ids.map((id) => sql`(${id}, ${id % 2}, ${`e${id}`}, ${id % 4 === 1 ? null : 'i'})`);
      await sql`insert into events (id, creator_id, title, image) values ${sql.join(values)}`.execute(db);
    }
    const rows = await all(ownedRows(db, 'events', 'creator_id', 1, ['id', 'title']));
    expect(rows).toHaveLength(total);
    expect(rows[0]).toEqual({ id: 1, title: 'e1' });
    expect(rows.map((r) => r.id)).toEqual(Array.from({ length: total }, (_, i) => 2 * i + 1));
    const withImage = await all(ownedRows(db, 'events', 'creator_id', 1, ['id', 'image'], { present: 'image' }));
    expect(withImage.map((r) => r.id)).toEqual(rows.map((r) => r.id).filter((id) => id % 4 === 3));
    await db.destroy();
  });

  it('pages on the key it is given, and selects every column with `all`', async () => {
    const db = await openDb();
    await db
      .insertInto('shares')
      .values([3, 1, 2].map((post_id) => ({ user_id: 7, post_id, created_at: `t${post_id}` })))
      .execute();
    expect(await all(ownedRows(db, 'shares', 'user_id', 7, ['post_id'], { key: 'post_id' }))).toEqual([
      { post_id: 1 },
      { post_id: 2 },
      { post_id: 3 },
    ]);
    expect((await all(ownedRows(db, 'shares', 'user_id', 7, 'all', { key: 'post_id' })))[0]).toEqual({
      user_id: 7,
      post_id: 1,
      created_at: 't1',
    });
    await db.destroy();
  });

  it('refuses, when called, a column list without the key', async () => {
    const db = await openDb();
    expect(() => ownedRows(db, 'events', 'creator_id', 1, ['title'])).toThrow('the columns must include the key id');
    await db.destroy();
  });
});
