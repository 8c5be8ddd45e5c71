import { Conflict, NotFound } from '@plaza/domain';
import { aNewUser } from '@plaza/domain/accounts/testing';
import { DuplicateKey, insertIfAbsent, MissingReference, StillReferenced } from '@plaza/adapters-mysql';
import { SqlUserRepository } from '@plaza/adapters-mysql/accounts';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { TEST_DIALECT, useTestDatabase } from '../support/database.js';

/**
 * What a refused write becomes, on the database under test: every statement goes through the
 * connection's translation (dialect.ts), so a race lost on a key is a 4xx domain error, and
 * `insertIfAbsent` ignores a duplicate and nothing else (INSERT IGNORE also swallowed foreign-key and
 * truncation errors on MySQL).
 */
const database = useTestDatabase();
const AT = '2026-01-01 00:00:00';

async function aUserId() {
  return (await new SqlUserRepository(database().db).create(aNewUser())).id;
}

describe(`constraint failures as domain errors (${TEST_DIALECT})`, () => {
  it('a duplicate key is a DuplicateKey conflict naming the key', async () => {
    const { db } = database();
    const u = aNewUser();
    await db
      .insertInto('users')
      .values({ ...u, is_admin: 0 })
      .execute();
    const again = db
      .insertInto('users')
      .values({ ...aNewUser({ email: u.email }), is_admin: 0 })
      .execute();
    await expect(again).rejects.toBeInstanceOf(DuplicateKey);
    await expect(again).rejects.toBeInstanceOf(Conflict);
    await expect(again).rejects.toMatchObject({ key: expect.stringContaining('email') });
  });

  it('a reference to a missing row is a MissingReference (404), a delete of a referenced row a StillReferenced conflict', async () => {
    const { db } = database();
    const ghost = 999_999_999;
    const missing = db
      .insertInto('follows')
      .values({ follower_id: ghost, followee_id: await aUserId(), created_at: AT })
      .execute();
    await expect(missing).rejects.toBeInstanceOf(MissingReference);
    await expect(missing).rejects.toBeInstanceOf(NotFound);

    // No table of ours restricts deletes (they cascade): one made for the test.
    await sql`create table plaza_test_parent (id integer primary key)`.execute(db);
    await sql`create table plaza_test_child (id integer primary key, parent_id integer not null, foreign key (parent_id) references plaza_test_parent (id))`.execute(
      db,
    );
    try {
      await sql`insert into plaza_test_parent (id) values (1)`.execute(db);
      await sql`insert into plaza_test_child (id, parent_id) values (1, 1)`.execute(db);
      await expect(sql`delete from plaza_test_parent where id = 1`.execute(db)).rejects.toBeInstanceOf(StillReferenced);
    } finally {
      await sql`drop table plaza_test_child`.execute(db);
      await sql`drop table plaza_test_parent`.execute(db);
    }
  });
});

describe(`insertIfAbsent (${TEST_DIALECT})`, () => {
  it('inserts once and then reports the row as already there', async () => {
    const { db } = database();
    const [a, b] = [await aUserId(), await aUserId()];
    expect(await insertIfAbsent(db, 'follows', { follower_id: a, followee_id: b, created_at: AT })).toBe(true);
    expect(await insertIfAbsent(db, 'follows', { follower_id: a, followee_id: b, created_at: AT })).toBe(false);
    const rows = await db.selectFrom('follows').select('follower_id').where('follower_id', '=', a).execute();
    expect(rows).toHaveLength(1);
  });

  it('of concurrent identical inserts, exactly one reports inserting', async () => {
    const { db } = database();
    const [a, b] = [await aUserId(), await aUserId()];
    const inserted = await Promise.all(
      Array.from({ length: 10 }, () => insertIfAbsent(db, 'follows', { follower_id: a, followee_id: b, created_at: AT })),
    );
    expect(inserted.filter(Boolean)).toHaveLength(1);
    expect(await db.selectFrom('follows').select('follower_id').where('follower_id', '=', a).execute()).toHaveLength(1);
  });

  it('does not swallow a missing reference, nor (MySQL) a value longer than its column', async () => {
    const { db } = database();
    const u = await aUserId();
    await expect(insertIfAbsent(db, 'follows', { follower_id: u, followee_id: 999_999_999, created_at: AT })).rejects.toBeInstanceOf(
      MissingReference,
    );
    expect(await db.selectFrom('follows').select('follower_id').where('follower_id', '=', u).execute()).toEqual([]);
    if (TEST_DIALECT === 'mysql') {
      // typing_indicators.target_type is varchar(8): INSERT IGNORE stored 'privatex' and said nothing.
      const tooLong = insertIfAbsent(db, 'typing_indicators', {
        user_id: u,
        target_type: 'private-and-more',
        target_id: 1,
        expires_at: AT,
      });
      await expect(tooLong).rejects.toMatchObject({ code: 'ER_DATA_TOO_LONG' });
      expect(await db.selectFrom('typing_indicators').select('user_id').where('user_id', '=', u).execute()).toEqual([]);
    }
  });
});
