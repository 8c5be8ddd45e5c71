import type { PlazaMigrations } from '../migrations/index.js';
import { tableOptions, TIMESTAMP } from '../migrations/helpers.js';

/** The admin panel's browser sessions (docs/decisions/0060). */
export const ADMIN_MIGRATIONS: PlazaMigrations = {
  '20261122_admin_sessions': {
    async up(db, dialect) {
      await tableOptions(db.schema.createTable('admin_sessions'), dialect)
        .addColumn('key_hash', 'char(64)', (c) => c.primaryKey())
        .addColumn('data', 'text', (c) => c.notNull())
        .addColumn('expires_at', TIMESTAMP, (c) => c.notNull())
        .execute();
      // The housekeeping job's delete of expired sessions.
      await db.schema.createIndex('admin_sessions_expiry').on('admin_sessions').column('expires_at').execute();
    },
  },
};
