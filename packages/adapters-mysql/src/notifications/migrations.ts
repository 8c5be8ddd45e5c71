import type { PlazaMigrations } from '../migrations/index.js';
import { tableOptions, TIMESTAMP, withId } from '../migrations/helpers.js';

/**
 * The notifications context's migrations (names `20261122_notifications_*`, applied in name order
 * after the baseline). Released migrations are never edited: add a new one.
 */
export const NOTIFICATIONS_MIGRATIONS: PlazaMigrations = {
  /** Pushes a provider failed to deliver, retried by a job with backoff. */
  '20261122_notifications_push_outbox': {
    async up(db, dialect) {
      await tableOptions(withId(db.schema.createTable('push_outbox')), dialect)
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('provider', 'varchar(16)', (c) => c.notNull())
        .addColumn('payload', 'text', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull())
        .addColumn('next_attempt_at', TIMESTAMP, (c) => c.notNull())
        .addColumn('last_error', 'varchar(500)', (c) => c.notNull())
        .addColumn('created_at', TIMESTAMP, (c) => c.notNull())
        .execute();
      // The retry job reads what is due, oldest first.
      await db.schema.createIndex('push_outbox_due').on('push_outbox').columns(['next_attempt_at', 'id']).execute();
    },
  },
};
