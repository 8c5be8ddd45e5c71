import type { PlazaMigration } from './helpers.js';
import { caseInsensitive, flag, tableOptions, TIMESTAMP, withId } from './helpers.js';

export const accounts: PlazaMigration = {
  async up(db, dialect) {
    const ci = caseInsensitive(dialect);
    await tableOptions(withId(db.schema.createTable('users')), dialect)
      .addColumn('username', 'varchar(64)', (c) => ci(c.notNull()))
      .addColumn('email', 'varchar(191)', (c) => ci(c.notNull()))
      .addColumn('password_hash', 'varchar(255)', (c) => c.notNull())
      .addColumn('display_name', 'varchar(255)')
      .addColumn('avatar', 'varchar(512)')
      .addColumn('banner', 'varchar(512)')
      .addColumn('bio', 'text')
      .addColumn('cause', 'varchar(255)')
      .addColumn('website', 'varchar(255)')
      .addColumn('twitter', 'varchar(255)')
      .addColumn('instagram', 'varchar(255)')
      .addColumn('facebook', 'varchar(255)')
      .addColumn('tiktok', 'varchar(255)')
      .addColumn('mastodon', 'varchar(255)')
      .addColumn('bluesky', 'varchar(255)')
      .addColumn('location', 'varchar(255)')
      .addColumn('github', 'varchar(255)')
      .addColumn('militant_badge', 'varchar(64)')
      .addColumn('status_emoji', 'varchar(64)')
      .addColumn('status_text', 'varchar(255)')
      .addColumn('is_admin', 'integer', flag)
      .addColumn('is_technician', 'integer', flag)
      .addColumn('is_moderator', 'integer', flag)
      .addColumn('is_private', 'integer', flag)
      .addColumn('totp_secret', 'varchar(128)')
      .addColumn('totp_enabled', 'integer', flag)
      .addColumn('last_active_at', TIMESTAMP)
      .addColumn('created_at', TIMESTAMP, (c) => c.notNull())
      .addColumn('updated_at', TIMESTAMP)
      .execute();
    await db.schema.createIndex('users_username_unique').on('users').column('username').unique().execute();
    await db.schema.createIndex('users_email_unique').on('users').column('email').unique().execute();

    await tableOptions(withId(db.schema.createTable('access_tokens')), dialect)
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('token_hash', 'char(64)', (c) => c.notNull())
      .addColumn('created_at', TIMESTAMP, (c) => c.notNull())
      .addColumn('expires_at', TIMESTAMP, (c) => c.notNull())
      .addColumn('last_used_at', TIMESTAMP)
      .addColumn('revoked_at', TIMESTAMP)
      .execute();
    await db.schema.createIndex('access_tokens_hash_unique').on('access_tokens').column('token_hash').unique().execute();
    await db.schema.createIndex('access_tokens_user').on('access_tokens').column('user_id').execute();

    await tableOptions(withId(db.schema.createTable('password_resets')), dialect)
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('token_hash', 'char(64)', (c) => c.notNull())
      .addColumn('created_at', TIMESTAMP, (c) => c.notNull())
      .addColumn('expires_at', TIMESTAMP, (c) => c.notNull())
      .addColumn('used_at', TIMESTAMP)
      .execute();
    await db.schema.createIndex('password_resets_hash_unique').on('password_resets').column('token_hash').unique().execute();

    await tableOptions(db.schema.createTable('rate_limit_counters'), dialect)
      .addColumn('bucket', 'varchar(191)', (c) => c.notNull())
      .addColumn('window_start', 'bigint', (c) => c.notNull())
      .addColumn('hits', 'integer', (c) => c.notNull())
      .addPrimaryKeyConstraint('rate_limit_counters_pk', ['bucket', 'window_start'])
      .execute();
    await db.schema.createIndex('rate_limit_counters_window').on('rate_limit_counters').column('window_start').execute();
  },
};
