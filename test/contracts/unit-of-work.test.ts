import { InMemoryUserRepository } from '@plaza/domain/accounts/testing';
import { aNewUser } from '@plaza/domain/accounts/testing';
import { InMemoryMessageGroupRepository } from '@plaza/domain/messaging/testing';
import { InMemoryUnitOfWork, unitOfWorkContract } from '@plaza/domain/shared/testing';
import { InMemoryFollowRepository, InMemoryFriendRequestRepository } from '@plaza/domain/social/testing';
import { KyselyUnitOfWork, lockRowForUpdate } from '@plaza/adapters-mysql';
import { SqlUserRepository } from '@plaza/adapters-mysql/accounts';
import { SqlMessageGroupRepository, SqlPrivateMessageRepository } from '@plaza/adapters-mysql/messaging';
import { SqlFollowRepository, SqlFriendRequestRepository } from '@plaza/adapters-mysql/social';
import { Kysely, sql, SqliteDialect } from 'kysely';
import SqliteDatabase from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { TEST_DIALECT, useTestDatabase } from '../support/database.js';

const database = useTestDatabase();
const AT = '2026-01-01 00:00:00';

unitOfWorkContract('in-memory', async () => {
  const users = new InMemoryUserRepository();
  const follows = new InMemoryFollowRepository();
  const groups = new InMemoryMessageGroupRepository();
  const friends = new InMemoryFriendRequestRepository();
  return { uow: new InMemoryUnitOfWork(users, follows, groups, friends), users, follows, groups, friends };
});
unitOfWorkContract(`sql (${TEST_DIALECT})`, async () => sqlPorts());

/** A promise and the function that settles it: to hold a unit open at a chosen point. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

function sqlPorts() {
  const { db, dialect } = database();
  return {
    uow: new KyselyUnitOfWork(db),
    users: new SqlUserRepository(db),
    follows: new SqlFollowRepository(db),
    groups: new SqlMessageGroupRepository(db, dialect),
    friends: new SqlFriendRequestRepository(db, dialect),
  };
}

describe(`sql (${TEST_DIALECT}): ambient transactions`, () => {
  it('concurrent independent units do not interfere: each commits or rolls back alone', async () => {
    const { uow, users, follows } = sqlPorts();
    const hub = await users.create(aNewUser());
    const fans = await Promise.all(Array.from({ length: 12 }, () => users.create(aNewUser())));
    let inFlight = 0;
    let maxInFlight = 0;
    const outcomes = await Promise.allSettled(
      fans.map((fan, i) =>
        uow.run(async () => {
          inFlight += 1;
          maxInFlight = Math.max(maxInFlight, inFlight);
          try {
            await follows.follow(fan.id, hub.id, AT);
            // Give the other units a chance to run in between.
            await new Promise((resolve) => setTimeout(resolve, 5));
            await follows.follow(hub.id, fan.id, AT);
            if (i % 2 === 1) throw new Error(`unit ${i} fails after both writes`);
          } finally {
            inFlight -= 1;
          }
        }),
      ),
    );
    expect(outcomes.map((o) => o.status)).toEqual(fans.map((_, i) => (i % 2 === 1 ? 'rejected' : 'fulfilled')));
    for (const [i, fan] of fans.entries()) {
      expect(await follows.isFollowing(fan.id, hub.id)).toBe(i % 2 === 0);
      expect(await follows.isFollowing(hub.id, fan.id)).toBe(i % 2 === 0);
    }
    // MySQL runs them side by side on pooled connections; SQLite's single connection runs one at a time.
    if (TEST_DIALECT === 'mysql') expect(maxInFlight).toBeGreaterThan(1);
    else expect(maxInFlight).toBe(1);
  });

  it('a repository transaction inside a unit joins it, whatever settings it asks for', async () => {
    const { db } = database();
    const { uow, users } = sqlPorts();
    await expect(
      uow.run(async () => {
        await users.create(aNewUser({ username: 'joined_then_undone' }));
        await db
          .transaction()
          .setIsolationLevel('serializable')
          .execute(async (trx) => {
            expect(trx.isTransaction).toBe(true);
            // Inside it, the routing db is that same transaction.
            expect(await db.selectFrom('users').select('id').where('username', '=', 'joined_then_undone').executeTakeFirst()).toBeDefined();
            await users.create(aNewUser({ username: 'joined_too' }));
          });
        throw new Error('the unit fails after the inner transaction');
      }),
    ).rejects.toThrow('the unit fails');
    expect(await users.findByLogin('joined_then_undone')).toBeNull();
    expect(await users.findByLogin('joined_too')).toBeNull();
  });

  it('the routing db is the plain Kysely API outside a unit and inside one', async () => {
    const { db, root } = database();
    const { uow } = sqlPorts();
    const count = async () =>
      Number(
        (
          await db
            .selectFrom('users')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    expect(db.isTransaction).toBe(false);
    expect(root.isTransaction).toBe(false);
    const before = await count();
    await uow.run(async () => {
      expect(db.isTransaction).toBe(true);
      expect(root.isTransaction).toBe(false);
      expect(uow.active).toBe(true);
      expect((await sql<{ one: number }>`select 1 as one`.execute(db)).rows[0].one).toBe(1);
      expect(await count()).toBe(before);
    });
    expect(uow.active).toBe(false);
    expect(db.isTransaction).toBe(false);
  });

  it('late work of a committed unit runs on its own; late work of a failed unit is refused', async () => {
    const { uow, users } = sqlPorts();
    let afterCommit: Promise<unknown> | undefined;
    await uow.run(async () => {
      afterCommit = new Promise((resolve) => setTimeout(resolve, 20)).then(() => users.create(aNewUser({ username: 'late_after_commit' })));
    });
    await afterCommit;
    expect(await users.findByLogin('late_after_commit')).not.toBeNull();

    let afterRollback: Promise<unknown> | undefined;
    await expect(
      uow.run(async () => {
        afterRollback = new Promise((resolve) => setTimeout(resolve, 20)).then(() =>
          users.create(aNewUser({ username: 'late_after_rollback' })),
        );
        throw new Error('failed');
      }),
    ).rejects.toThrow('failed');
    await expect(afterRollback).rejects.toThrow(/rolled back/i);
    expect(await users.findByLogin('late_after_rollback')).toBeNull();
  });

  it('refuses a db that does not route to the current transaction', async () => {
    const plain = new Kysely<object>({ dialect: new SqliteDialect({ database: new SqliteDatabase(':memory:') }) });
    expect(() => new KyselyUnitOfWork(plain as never)).toThrow(/openDatabase/);
    await plain.destroy();
  });

  it.runIf(TEST_DIALECT === 'mysql')('keeps uncommitted writes invisible outside the unit (MySQL)', async () => {
    const { uow, users } = sqlPorts();
    const written = gate();
    const release = gate();
    const unit = uow.run(async () => {
      await users.create(aNewUser({ username: 'not_yet_committed' }));
      written.open();
      await release.opened;
    });
    await written.opened;
    // Outside the unit's async chain: the routing db goes to the root pool.
    expect(await users.findByLogin('not_yet_committed')).toBeNull();
    release.open();
    await unit;
    expect(await users.findByLogin('not_yet_committed')).not.toBeNull();
  });

  it.runIf(TEST_DIALECT === 'mysql')(
    'a deletion in a unit moves the last message to the newest one now, not the one of its snapshot (MySQL)',
    async () => {
      const { db, dialect } = database();
      const { uow, users, groups } = sqlPorts();
      const messages = new SqlPrivateMessageRepository(db, dialect);
      const [a, b] = [await users.create(aNewUser()), await users.create(aNewUser())];
      const gid = await groups.create({ name: 'Snapshot', avatar: null, creator_id: a.id, created_at: AT }, [
        { user_id: a.id, role: 'admin' },
      ]);
      const body = { content: 'x', media: null, media_type: null, parent_id: null, created_at: AT, expires_at: null };
      const groupOld = await groups.createMessage({ ...body, group_id: gid, sender_id: a.id });
      const privateOld = await messages.create({ ...body, sender_id: a.id, receiver_id: b.id });
      const snapshotTaken = gate();
      const newerSent = gate();
      const unit = uow.run(async () => {
        // The unit's first plain read: on InnoDB its snapshot dates from here.
        expect(await groups.findMessage(groupOld.id)).not.toBeNull();
        snapshotTaken.open();
        await newerSent.opened;
        await groups.deleteMessage(groupOld.id);
        await messages.delete(privateOld.id);
      });
      await snapshotTaken.opened;
      const groupNewer = await groups.createMessage({ ...body, group_id: gid, sender_id: a.id });
      const privateNewer = await messages.create({ ...body, sender_id: b.id, receiver_id: a.id });
      newerSent.open();
      await unit;
      expect((await groups.findById(gid))?.last_message_id).toBe(groupNewer.id);
      const { items } = await messages.conversations(a.id, { page: 1, perPage: 10 });
      expect(items.map((c) => c.last_message.id)).toEqual([privateNewer.id]);
    },
  );

  it.runIf(TEST_DIALECT === 'mysql')('runs a deadlock victim again, and both units commit (MySQL)', async () => {
    const { db, dialect } = database();
    const { uow, users } = sqlPorts();
    const [x, y] = [await users.create(aNewUser()), await users.create(aNewUser())];
    const retriesBefore = uow.stats.deadlockRetries;
    const firstLocked = [gate(), gate()];
    const attempts = [0, 0];
    const effects = [0, 0];
    // Two units lock the same two rows in opposite orders: the classic deadlock.
    const crossing = (me: 0 | 1, first: number, second: number, name: string) =>
      uow.run(async () => {
        attempts[me] += 1;
        await uow.afterCommit(async () => void (effects[me] += 1));
        await lockRowForUpdate(db, dialect, 'users', first);
        firstLocked[me].open();
        await firstLocked[1 - me].opened;
        await lockRowForUpdate(db, dialect, 'users', second);
        await db.updateTable('users').set({ status_text: name }).where('id', '=', second).execute();
      });
    await Promise.all([crossing(0, x.id, y.id, 'from 0'), crossing(1, y.id, x.id, 'from 1')]);
    expect(uow.stats.deadlockRetries - retriesBefore).toBe(1);
    expect(attempts.sort()).toEqual([1, 2]);
    // The victim's first attempt was undone, and its effect with it: each unit's effect ran once.
    expect(effects).toEqual([1, 1]);
    const texts = (await users.findByIds([x.id, y.id])).map((u) => u.status_text).sort();
    expect(texts).toEqual(['from 0', 'from 1']);
  });
});
