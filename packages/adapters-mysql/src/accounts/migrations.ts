import type { PlazaMigrations } from '../migrations/index.js';
import { flag, tableOptions, TIMESTAMP, withId } from '../migrations/helpers.js';
import { registrationMigration } from './registration-migrations.js';
import { authVersionsMigration } from './sql-auth-invalidation.js';

/**
 * The accounts context's migrations after the baseline (names `20261122_accounts_*`, applied in name
 * order after it). Released migrations are never edited: add a new one.
 */
export const ACCOUNTS_MIGRATIONS: PlazaMigrations = {
  /** Replay protection of TOTP codes, and single-use recovery codes (hashes only). */
  '20261122_accounts_two_factor': {
    async up(db, dialect) {
      await db.schema.alterTable('users').addColumn('totp_last_step', 'bigint').execute();
      await tableOptions(withId(db.schema.createTable('two_factor_recovery_codes')), dialect)
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('code_hash', 'char(64)', (c) => c.notNull())
        .addColumn('created_at', TIMESTAMP, (c) => c.notNull())
        .addColumn('used_at', TIMESTAMP)
        .execute();
      // Login looks a code up by account and hash.
      await db.schema
        .createIndex('two_factor_recovery_codes_user_hash')
        .on('two_factor_recovery_codes')
        .columns(['user_id', 'code_hash'])
        .unique()
        .execute();
    },
  },
  /** Mail waiting for delivery, retried by a job (docs/decisions/0091). */
  '20261122_accounts_mail_outbox': {
    async up(db, dialect) {
      await tableOptions(withId(db.schema.createTable('mail_outbox')), dialect)
        .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('recipient', 'varchar(191)', (c) => c.notNull())
        .addColumn('subject', 'varchar(255)', (c) => c.notNull())
        .addColumn('text_body', 'text', (c) => c.notNull())
        .addColumn('html_body', 'text')
        .addColumn('status', 'varchar(16)', (c) => c.notNull())
        .addColumn('attempts', 'integer', flag)
        .addColumn('next_attempt_at', TIMESTAMP, (c) => c.notNull())
        .addColumn('lease_until', TIMESTAMP)
        .addColumn('last_error', 'varchar(1000)')
        .addColumn('created_at', TIMESTAMP, (c) => c.notNull())
        .addColumn('sent_at', TIMESTAMP)
        .execute();
      // The job's scan: pending entries by due time.
      await db.schema.createIndex('mail_outbox_due').on('mail_outbox').columns(['status', 'next_attempt_at', 'id']).execute();
      await db.schema.createIndex('mail_outbox_user').on('mail_outbox').columns(['user_id']).execute();
    },
  },
  /** Privacy flags on the account (read by every list), notification switches beside it. */
  '20261122_accounts_preferences': {
    async up(db, dialect) {
      for (const column of ['show_online_status', 'read_receipts', 'allow_messages']) {
        await db.schema
          .alterTable('users')
          .addColumn(column, 'integer', (c) => c.notNull().defaultTo(1))
          .execute();
      }
      await db.schema.alterTable('users').addColumn('deleted_at', TIMESTAMP).execute();
      await tableOptions(db.schema.createTable('user_preferences'), dialect)
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('pref_key', 'varchar(64)', (c) => c.notNull())
        .addColumn('enabled', 'integer', (c) => c.notNull())
        .addColumn('updated_at', TIMESTAMP, (c) => c.notNull())
        .addPrimaryKeyConstraint('user_preferences_pk', ['user_id', 'pref_key'])
        .execute();
    },
  },
  /**
   * The export and the erasure read every table by the account's column, in id (or key) order, a
   * batch at a time: each of these serves one such read (MySQL had only foreign-key indexes there,
   * SQLite none). Bookmarks and following are served by their primary keys.
   */
  '20261122_accounts_export_indexes': {
    async up(db) {
      for (const [table, index, columns] of [
        ['comments', 'comments_user_id', ['user_id', 'id']],
        ['private_messages', 'private_messages_sender_id', ['sender_id', 'id']],
        ['private_messages', 'private_messages_receiver_id', ['receiver_id', 'id']],
        ['group_messages', 'group_messages_sender_id', ['sender_id', 'id']],
        ['shares', 'shares_user_post', ['user_id', 'post_id']],
        ['friend_requests', 'friend_requests_sender_id', ['sender_id', 'status', 'id']],
        ['friend_requests', 'friend_requests_receiver_id', ['receiver_id', 'status', 'id']],
        ['access_tokens', 'access_tokens_user_id', ['user_id', 'id']],
      ] as const) {
        await db.schema
          .createIndex(index)
          .on(table)
          .columns([...columns])
          .execute();
      }
    },
  },
  /**
   * Re-authentication (docs/decisions/0112): how and when the login behind each token authenticated
   * (sudo mode; null on tokens no login issued, those of before included), and the wrong proofs
   * counted per account for the lock.
   */
  '20261127_accounts_reauthentication': {
    async up(db, dialect) {
      await db.schema.alterTable('access_tokens').addColumn('authenticated_at', TIMESTAMP).execute();
      await db.schema.alterTable('access_tokens').addColumn('authenticated_with', 'varchar(16)').execute();
      await tableOptions(db.schema.createTable('reauthentication_attempts'), dialect)
        .addColumn('user_id', 'integer', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
        .addColumn('attempts', 'integer', flag)
        .addColumn('last_attempt_at', TIMESTAMP, (c) => c.notNull())
        .execute();
    },
  },
  /** Registration under the operator's control (docs/decisions/0104). */
  '20261127_accounts_registration': registrationMigration,
  /** The session-change signal's version rows (docs/decisions/0150). */
  '20261127_accounts_auth_versions': authVersionsMigration,
  /** Single-use links confirming an account's deletion. */
  '20261122_accounts_deletion': {
    async up(db, dialect) {
      await tableOptions(withId(db.schema.createTable('account_deletion_requests')), dialect)
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('token_hash', 'char(64)', (c) => c.notNull())
        .addColumn('created_at', TIMESTAMP, (c) => c.notNull())
        .addColumn('expires_at', TIMESTAMP, (c) => c.notNull())
        .addColumn('used_at', TIMESTAMP)
        .execute();
      await db.schema.createIndex('account_deletion_requests_hash').on('account_deletion_requests').column('token_hash').unique().execute();
      await db.schema.createIndex('account_deletion_requests_user').on('account_deletion_requests').column('user_id').execute();
    },
  },
};
