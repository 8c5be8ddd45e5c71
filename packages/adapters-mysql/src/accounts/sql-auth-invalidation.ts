import type { AuthChanges, AuthInvalidation } from '@plaza/domain/accounts';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../database.js';
import { incrementCounter, insertOrUpdate, type SqlDialect } from '../dialect.js';
import type { PlazaMigration } from '../migrations/helpers.js';
import { asHousekeeping } from '../query-counter.js';
import { tableOptions } from '../migrations/helpers.js';

/** Row 0 holds the counter; every other row, an account's last change as a value of it. */
const COUNTER_ROW = 0;
/** More accounts than this changed since a reader's cursor: it drops every session instead of listing them. */
const MOST_LISTED = 1000;

export interface AuthVersionsTable {
  user_id: number;
  version: number;
}

declare module '../database.js' {
  interface Database {
    auth_versions: AuthVersionsTable;
  }
}

/** `auth_versions`, part of ACCOUNTS_MIGRATIONS as `20261127_accounts_auth_versions` (docs/decisions/0150). */
export const authVersionsMigration: PlazaMigration = {
  async up(db, dialect) {
    // No foreign key: row 0 is the counter, and a deleted account's row does no harm.
    await tableOptions(db.schema.createTable('auth_versions'), dialect)
      .addColumn('user_id', 'integer', (c) => c.primaryKey())
      .addColumn('version', 'bigint', (c) => c.notNull())
      .execute();
    // Each process reads the rows above its cursor once a second.
    await db.schema.createIndex('auth_versions_version').on('auth_versions').column('version').execute();
  },
};

/**
 * The session-change signal in the database (docs/decisions/0150): one row per account holding the
 * value of a global counter (row 0) at its last change. A publication is a transaction of its own that
 * raises the counter and writes it on the account's row; the counter row's lock, held to the commit,
 * makes versions commit in their order, so a reader that sees version n has seen every version below
 * it, and `version > cursor` misses nothing and repeats nothing.
 */
export class SqlAuthInvalidation implements AuthInvalidation {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: SqlDialect,
  ) {}

  async publish(userId: number): Promise<void> {
    // Its own transaction (not the caller's: SessionCache publishes after the commit), two statements,
    // the counter first: every publisher locks the same two rows in the same order.
    await this.db.transaction().execute(async (trx) => {
      const version = await incrementCounter(trx, this.dialect, 'auth_versions', { user_id: COUNTER_ROW }, 'version');
      await insertOrUpdate(trx, this.dialect, 'auth_versions', [{ user_id: userId, version }], ['user_id'], { version });
    });
  }

  /** The check is the process's housekeeping, not the request's that happens to run it (query-counter.ts). */
  changedSince(cursor: string | null): Promise<AuthChanges> {
    return asHousekeeping(() => this.read(cursor));
  }

  private async read(cursor: string | null): Promise<AuthChanges> {
    if (cursor === null) {
      const row = await this.db.selectFrom('auth_versions').select('version').where('user_id', '=', COUNTER_ROW).executeTakeFirst();
      return { cursor: String(row ? Number(row.version) : 0), userIds: [], everyone: false };
    }
    const from = Number(cursor);
    // One statement, one snapshot: the counter row comes with the changes when there are any.
    const rows = await this.db
      .selectFrom('auth_versions')
      .select(['user_id', 'version'])
      .where('version', '>', sql<number>`${from}`)
      .orderBy('version')
      .limit(MOST_LISTED + 2)
      .execute();
    let top = from;
    const userIds: number[] = [];
    for (const row of rows) {
      top = Math.max(top, Number(row.version));
      if (row.user_id !== COUNTER_ROW) userIds.push(row.user_id);
    }
    if (rows.length > MOST_LISTED + 1) {
      const counter = await this.db.selectFrom('auth_versions').select('version').where('user_id', '=', COUNTER_ROW).executeTakeFirst();
      return { cursor: String(counter ? Number(counter.version) : top), userIds: [], everyone: true };
    }
    return { cursor: String(top), userIds, everyone: false };
  }
}
