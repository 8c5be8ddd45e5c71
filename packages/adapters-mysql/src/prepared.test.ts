import SqliteDatabase from 'better-sqlite3';
import { Kysely, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { fairSqliteDialect } from './fair-sqlite.js';
import { prepared } from './prepared.js';

describe('prepared', () => {
  it('builds once and runs with each call’s values, in any parameter order', async () => {
    const db = new Kysely<any>({ dialect: fairSqliteDialect(new SqliteDatabase(':memory:')) });
    await sql`create table t (id integer primary key, owner integer, v text)`.execute(db);
    await db
      .insertInto('t')
      .values([1, 2, 3, 4, 5].map((id) => ({ id, owner: id % 2, v: `v${id}` })))
      .execute();
    let builds = 0;
    const q = prepared((owner: number, limit: number) => {
      builds += 1;
      return db.selectFrom('t').select(['id']).where('owner', '=', owner).orderBy('id', 'desc').limit(limit);
    });
    expect((await q(db, 1, 2)).map((r) => r.id)).toEqual([5, 3]);
    expect((await q(db, 0, 5)).map((r) => r.id)).toEqual([4, 2]);
    expect((await q(db, 1, 1)).map((r) => r.id)).toEqual([5]);
    expect(builds).toBe(1);
    await db.destroy();
  });

  it('refuses a placeholder that is not used as a value', async () => {
    const db = new Kysely<any>({ dialect: fairSqliteDialect(new SqliteDatabase(':memory:')) });
    const q = prepared((_unused: number) => db.selectFrom('t').select('id'));
    await expect(q(db, 1)).rejects.toThrow('parameter 0 is not used');
    await db.destroy();
  });
});
