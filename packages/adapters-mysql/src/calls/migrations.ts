import { sql } from 'kysely';
import type { PlazaMigrations } from '../migrations/index.js';
import { tableOptions, TIMESTAMP, withId } from '../migrations/helpers.js';

/**
 * The calls context's migrations (names `20261122_calls_*`, applied in name order after the
 * baseline). Released migrations are never edited: add a new one.
 */
export const CALLS_MIGRATIONS: PlazaMigrations = {
  /** Calls, their participants, and the signalling (ICE candidates, peer offers and answers) they relay. */
  '20261122_calls_signalling': {
    async up(db, dialect) {
      // Session descriptions reach 100,000 characters (up to 400 kB in utf8mb4): past TEXT's 64 kB.
      const longText = dialect === 'mysql' ? sql`mediumtext` : sql`text`;
      await tableOptions(withId(db.schema.createTable('calls')), dialect)
        .addColumn('caller_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('recipient_id', 'integer', (c) => c.references('users.id').onDelete('cascade'))
        // A messaging group (message_groups.id) for group calls; no foreign key, so that a group call
        // outlives its group in the participants' history.
        .addColumn('group_id', 'integer')
        .addColumn('call_type', 'varchar(8)', (c) => c.notNull())
        .addColumn('status', 'varchar(16)', (c) => c.notNull())
        .addColumn('offer_sdp', longText)
        .addColumn('answer_sdp', longText)
        .addColumn('created_at', TIMESTAMP, (c) => c.notNull())
        .addColumn('answered_at', TIMESTAMP)
        .addColumn('ended_at', TIMESTAMP)
        .execute();
      // The ring timeout sweeps ringing calls by age.
      await db.schema.createIndex('calls_status_created').on('calls').columns(['status', 'created_at']).execute();
      // The open call of a group.
      await db.schema.createIndex('calls_group_status').on('calls').columns(['group_id', 'status', 'id']).execute();

      await tableOptions(db.schema.createTable('call_participants'), dialect)
        .addColumn('call_id', 'integer', (c) => c.notNull().references('calls.id').onDelete('cascade'))
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('status', 'varchar(16)', (c) => c.notNull())
        .addColumn('joined_at', TIMESTAMP)
        .addColumn('left_at', TIMESTAMP)
        .addPrimaryKeyConstraint('call_participants_pk', ['call_id', 'user_id'])
        .execute();
      // A user's history, newest call first.
      await db.schema.createIndex('call_participants_user').on('call_participants').columns(['user_id', 'call_id']).execute();

      await tableOptions(withId(db.schema.createTable('call_signals')), dialect)
        .addColumn('call_id', 'integer', (c) => c.notNull().references('calls.id').onDelete('cascade'))
        .addColumn('from_user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('to_user_id', 'integer', (c) => c.references('users.id').onDelete('cascade'))
        .addColumn('kind', 'varchar(8)', (c) => c.notNull())
        .addColumn('payload', longText, (c) => c.notNull())
        .addColumn('created_at', TIMESTAMP, (c) => c.notNull())
        .execute();
      // A poll reads one call's signals in a time window.
      await db.schema.createIndex('call_signals_call_created').on('call_signals').columns(['call_id', 'created_at', 'id']).execute();
    },
  },
  /** A poll resumes after the last signal id it returned (decision 0151): the call's signals in id order. */
  '20261127_calls_signal_cursor': {
    async up(db) {
      await db.schema.createIndex('call_signals_call_id').on('call_signals').columns(['call_id', 'id']).execute();
    },
  },
};
