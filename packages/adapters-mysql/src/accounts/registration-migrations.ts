import type { PlazaMigration } from '../migrations/helpers.js';
import { flag, tableOptions, TIMESTAMP, withId } from '../migrations/helpers.js';

/**
 * Registration under the operator's control (docs/decisions/0104): holds of new accounts (approval,
 * e-mail confirmation), invitation codes (hashes only) and the single-use confirmation links.
 * Part of ACCOUNTS_MIGRATIONS as `20261127_accounts_registration`.
 */
export const registrationMigration: PlazaMigration = {
  async up(db, dialect) {
    await tableOptions(db.schema.createTable('account_holds'), dialect)
      .addColumn('user_id', 'integer', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
      .addColumn('awaiting_approval', 'integer', flag)
      .addColumn('awaiting_email', 'integer', flag)
      .addColumn('created_at', TIMESTAMP, (c) => c.notNull())
      .execute();
    // The panel's queue: registrations awaiting approval, oldest first.
    await db.schema.createIndex('account_holds_approval').on('account_holds').columns(['awaiting_approval', 'created_at']).execute();

    await tableOptions(withId(db.schema.createTable('registration_invitations')), dialect)
      .addColumn('code_hash', 'char(64)', (c) => c.notNull())
      .addColumn('code_hint', 'varchar(8)', (c) => c.notNull())
      .addColumn('max_uses', 'integer', (c) => c.notNull())
      .addColumn('uses', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('expires_at', TIMESTAMP)
      .addColumn('revoked_at', TIMESTAMP)
      .addColumn('created_by', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('created_at', TIMESTAMP, (c) => c.notNull())
      .execute();
    await db.schema.createIndex('registration_invitations_hash').on('registration_invitations').column('code_hash').unique().execute();

    await tableOptions(withId(db.schema.createTable('email_confirmations')), dialect)
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('token_hash', 'char(64)', (c) => c.notNull())
      .addColumn('created_at', TIMESTAMP, (c) => c.notNull())
      .addColumn('expires_at', TIMESTAMP, (c) => c.notNull())
      .addColumn('used_at', TIMESTAMP)
      .execute();
    await db.schema.createIndex('email_confirmations_hash').on('email_confirmations').column('token_hash').unique().execute();
    await db.schema.createIndex('email_confirmations_user').on('email_confirmations').column('user_id').execute();
  },
};
