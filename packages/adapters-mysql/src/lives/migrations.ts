import type { ColumnDefinitionBuilder } from 'kysely';
import type { PlazaMigrations } from '../migrations/index.js';
import { flag, tableOptions, TIMESTAMP, withId } from '../migrations/helpers.js';

/**
 * The lives context's migrations (names `20261122_lives_*`, applied in name order after the
 * baseline). Released migrations are never edited: add a new one.
 */
export const LIVES_MIGRATIONS: PlazaMigrations = {
  /** Lives, their viewers, guests, moderators, chat blocks, comments and reports. */
  '20261122_lives_broadcasts': {
    async up(db, dialect) {
      const userRef = (c: ColumnDefinitionBuilder) => c.notNull().references('users.id').onDelete('cascade');
      const liveRef = (c: ColumnDefinitionBuilder) => c.notNull().references('lives.id').onDelete('cascade');

      await tableOptions(withId(db.schema.createTable('lives')), dialect)
        .addColumn('user_id', 'integer', userRef)
        .addColumn('title', 'varchar(200)', (c) => c.notNull())
        .addColumn('description', 'text', (c) => c.notNull())
        .addColumn('is_public', 'integer', flag)
        .addColumn('max_guests', 'integer', (c) => c.notNull())
        .addColumn('status', 'varchar(16)', (c) => c.notNull())
        .addColumn('background_image', 'varchar(512)')
        .addColumn('report_count', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('is_suspended', 'integer', flag)
        .addColumn('created_at', TIMESTAMP, (c) => c.notNull())
        .addColumn('ended_at', TIMESTAMP)
        .addColumn('end_reason', 'varchar(16)')
        .execute();
      // The active list, newest first; and a creator's active lives (ended when a new one starts).
      await db.schema.createIndex('lives_status_id').on('lives').columns(['status', 'id']).execute();
      await db.schema.createIndex('lives_user_status').on('lives').columns(['user_id', 'status']).execute();

      await tableOptions(db.schema.createTable('live_viewers'), dialect)
        .addColumn('live_id', 'integer', liveRef)
        .addColumn('user_id', 'integer', userRef)
        .addColumn('last_ping_at', TIMESTAMP)
        .addColumn('media_connected', 'integer', flag)
        .addColumn('updated_at', TIMESTAMP, (c) => c.notNull())
        .addPrimaryKeyConstraint('live_viewers_pk', ['live_id', 'user_id'])
        .execute();

      await tableOptions(db.schema.createTable('live_guests'), dialect)
        .addColumn('live_id', 'integer', liveRef)
        .addColumn('user_id', 'integer', userRef)
        .addColumn('status', 'varchar(16)', (c) => c.notNull())
        .addColumn('message', 'varchar(500)')
        .addColumn('created_at', TIMESTAMP, (c) => c.notNull())
        .addColumn('decided_at', TIMESTAMP)
        .addPrimaryKeyConstraint('live_guests_pk', ['live_id', 'user_id'])
        .execute();
      // A live's requests of one status, oldest first.
      await db.schema.createIndex('live_guests_status').on('live_guests').columns(['live_id', 'status', 'created_at']).execute();

      for (const table of ['live_moderators', 'live_chat_blocks']) {
        await tableOptions(withId(db.schema.createTable(table)), dialect)
          .addColumn('live_id', 'integer', liveRef)
          .addColumn('user_id', 'integer', userRef)
          .addColumn('created_at', TIMESTAMP, (c) => c.notNull())
          .addUniqueConstraint(`${table}_once`, ['live_id', 'user_id'])
          .execute();
      }

      await tableOptions(withId(db.schema.createTable('live_comments')), dialect)
        .addColumn('live_id', 'integer', liveRef)
        .addColumn('user_id', 'integer', userRef)
        .addColumn('content', 'text', (c) => c.notNull())
        .addColumn('created_at', TIMESTAMP, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('live_comments_live').on('live_comments').columns(['live_id', 'id']).execute();

      await tableOptions(withId(db.schema.createTable('live_reports')), dialect)
        .addColumn('live_id', 'integer', liveRef)
        .addColumn('reporter_id', 'integer', userRef)
        .addColumn('reason', 'varchar(32)', (c) => c.notNull())
        .addColumn('description', 'varchar(1000)')
        .addColumn('created_at', TIMESTAMP, (c) => c.notNull())
        .addUniqueConstraint('live_reports_once', ['live_id', 'reporter_id'])
        .execute();
    },
  },
};
