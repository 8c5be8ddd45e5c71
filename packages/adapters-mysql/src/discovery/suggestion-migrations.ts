import { sql } from 'kysely';
import type { PlazaMigration } from '../migrations/helpers.js';
import type { PlazaMigrations } from '../migrations/index.js';

/** discover.php's "same cause" list reads accounts by cause, compared without case. */
const causeIndex: PlazaMigration = {
  async up(db, dialect) {
    if (dialect === 'mysql') await db.schema.createIndex('users_cause').on('users').columns(['cause', 'id']).execute();
    else await sql`create index users_cause on users (cause collate nocase, id)`.execute(db);
  },
  async down(db, dialect) {
    if (dialect === 'mysql') await db.schema.dropIndex('users_cause').on('users').execute();
    else await sql`drop index if exists users_cause`.execute(db);
  },
};

export const DISCOVER_MIGRATIONS: PlazaMigrations = {
  '20261122_discovery_users_cause_index': causeIndex,
};
