import type { ColumnDefinitionBuilder } from 'kysely';
import type { PlazaMigration } from '../migrations/helpers.js';
import { tableOptions, TIMESTAMP, withId } from '../migrations/helpers.js';
import type { PlazaMigrations } from '../migrations/index.js';

/** Events, their participants and the invitations sent for them. */
const eventsTables: PlazaMigration = {
  async up(db, dialect) {
    const users = (c: ColumnDefinitionBuilder) => c.notNull().references('users.id').onDelete('cascade');
    const events = (c: ColumnDefinitionBuilder) => c.notNull().references('events.id').onDelete('cascade');
    await tableOptions(withId(db.schema.createTable('events')), dialect)
      .addColumn('creator_id', 'integer', users)
      .addColumn('title', 'varchar(255)', (c) => c.notNull())
      .addColumn('description', 'text', (c) => c.notNull())
      .addColumn('location', 'varchar(255)', (c) => c.notNull().defaultTo(''))
      // A wall-clock time, not a timestamp: text of the same form on both dialects, compared as text.
      .addColumn('event_date', 'varchar(19)', (c) => c.notNull())
      .addColumn('image', 'varchar(255)')
      .addColumn('participants_count', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created_at', TIMESTAMP, (c) => c.notNull())
      .execute();
    // Upcoming events, soonest first; an organiser's events (account data).
    await db.schema.createIndex('events_upcoming').on('events').columns(['event_date', 'id']).execute();
    await db.schema.createIndex('events_creator').on('events').columns(['creator_id', 'id']).execute();

    await tableOptions(db.schema.createTable('event_participants'), dialect)
      .addColumn('event_id', 'integer', events)
      .addColumn('user_id', 'integer', users)
      .addColumn('created_at', TIMESTAMP, (c) => c.notNull())
      .addPrimaryKeyConstraint('event_participants_pk', ['event_id', 'user_id'])
      .execute();
    await db.schema.createIndex('event_participants_user').on('event_participants').columns(['user_id', 'event_id']).execute();

    await tableOptions(db.schema.createTable('event_invites'), dialect)
      .addColumn('event_id', 'integer', events)
      .addColumn('user_id', 'integer', users)
      .addColumn('invited_by', 'integer', users)
      .addColumn('created_at', TIMESTAMP, (c) => c.notNull())
      .addPrimaryKeyConstraint('event_invites_pk', ['event_id', 'user_id'])
      .execute();
    await db.schema.createIndex('event_invites_user').on('event_invites').columns(['user_id', 'event_id']).execute();
    await db.schema.createIndex('event_invites_by').on('event_invites').columns(['invited_by', 'event_id']).execute();
  },
};

export const EVENTS_MIGRATIONS: PlazaMigrations = {
  '20261122_events_tables': eventsTables,
};
