import SqliteDatabase from 'better-sqlite3';
import { Kysely, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { FairMutex, fairSqliteDialect } from './fair-sqlite.js';

describe('FairMutex', () => {
  it('hands the lock over in arrival order, even to a newcomer arriving during a hand-over', async () => {
    const mutex = new FairMutex();
    const order: string[] = [];
    await mutex.lock();
    const waiters = ['a', 'b', 'c'].map((name) => mutex.lock().then(() => order.push(name)));
    mutex.unlock();
    // Arrives while the hand-over to `a` is pending: it must queue behind b and c.
    const late = mutex.lock().then(() => order.push('late'));
    for (let i = 0; i < 4; i++) {
      await new Promise((r) => setImmediate(r));
      await new Promise((r) => setImmediate(r));
      mutex.unlock();
    }
    await Promise.all([...waiters, late]);
    expect(order).toEqual(['a', 'b', 'c', 'late']);
  });

  it('lets the event loop run between two holders', async () => {
    const mutex = new FairMutex();
    const events: string[] = [];
    await mutex.lock();
    const next = mutex.lock().then(() => events.push('next holder'));
    setImmediate(() => events.push('other I/O'));
    mutex.unlock();
    await next;
    expect(events).toEqual(['other I/O', 'next holder']);
  });
});

describe('fairSqliteDialect', () => {
  it('runs queries and transactions, and reuses prepared statements', async () => {
    const database = new SqliteDatabase(':memory:');
    const db = new Kysely<any>({ dialect: fairSqliteDialect(database) });
    await sql`create table t (id integer primary key autoincrement, v text)`.execute(db);
    const inserts = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        db
          .insertInto('t')
          .values({ v: `v${i}` })
          .executeTakeFirst(),
      ),
    );
    expect(inserts.map((r) => Number(r.insertId)).sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    await expect(
      db.transaction().execute(async (trx) => {
        await trx.insertInto('t').values({ v: 'rolled back' }).execute();
        throw new Error('undo');
      }),
    ).rejects.toThrow('undo');
    const rows = await db
      .selectFrom('t')
      .select(({ fn }) => fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(rows.n)).toBe(20);
    await db.destroy();
  });
});
