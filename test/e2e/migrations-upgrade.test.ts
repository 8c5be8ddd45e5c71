import { migrateToLatest } from '@plaza/adapters-mysql';
import { plazaMigrations } from '@plaza/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEmptyTestDatabase, type TestDatabase } from '../support/database.js';

/** What the first release's databases ran: the baseline and the contexts of that release. */
const FIRST_RELEASE =
  /^(000\d_|20261122_(accounts_(deletion|export_indexes|mail_outbox|preferences|two_factor)|calls_signalling|lives_broadcasts|moderation_tables|notifications_push_outbox)$)/;

let database: TestDatabase;
beforeAll(async () => {
  database = await openEmptyTestDatabase();
});
afterAll(() => database.drop());

describe('upgrading a database', () => {
  it('runs the migrations of contexts added since, even those whose names sort before ones already run', async () => {
    const all = plazaMigrations();
    const released = Object.fromEntries(Object.entries(all).filter(([name]) => FIRST_RELEASE.test(name)));
    expect(Object.keys(released).length).toBeGreaterThan(5);
    await migrateToLatest(database.db, database.dialect, released);

    const ran = await migrateToLatest(database.db, database.dialect, all);
    const added = Object.keys(all).filter((name) => !FIRST_RELEASE.test(name));
    expect([...ran].sort()).toEqual([...added].sort());
    // Among them, names that sort before the release's last one: the case Kysely refuses by default.
    expect(added.some((name) => name < '20261122_notifications_push_outbox')).toBe(true);
    expect(await migrateToLatest(database.db, database.dialect, all)).toEqual([]);
    // The upgraded schema serves: a table of a later context exists.
    await database.db
      .selectFrom('community_groups' as never)
      .selectAll()
      .execute();
    // Every migration Plaza has, run on MariaDB, where each DDL statement commits on its
    // own: 37 s on a loaded machine, past the suite's 30 s default.
  }, 120_000);
});
