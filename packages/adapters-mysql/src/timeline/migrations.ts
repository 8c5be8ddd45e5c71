import type { PlazaMigration } from '../migrations/helpers.js';
import { flag, tableOptions, TIMESTAMP } from '../migrations/helpers.js';
import type { PlazaMigrations } from '../migrations/index.js';

/** The precomputed home timeline (docs/decisions/0071). */
const homeTimelineTables: PlazaMigration = {
  async up(db, dialect) {
    await tableOptions(db.schema.createTable('home_timeline'), dialect)
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      // A removed post removes its wall entries, and they their timeline entries.
      .addColumn('entry_id', 'integer', (c) => c.notNull().references('wall_entries.id').onDelete('cascade'))
      .addColumn('post_id', 'integer', (c) => c.notNull())
      .addColumn('owner_id', 'integer', (c) => c.notNull())
      .addColumn('is_share', 'integer', flag)
      .addColumn('created_at', TIMESTAMP, (c) => c.notNull())
      .addPrimaryKeyConstraint('home_timeline_pk', ['user_id', 'entry_id'])
      .execute();
    // The feed: one range of a reader's entries, newest first.
    await db.schema.createIndex('home_timeline_read').on('home_timeline').columns(['user_id', 'created_at', 'entry_id']).execute();
    // The cascade from wall_entries (SQLite has no implicit index on a foreign key).
    await db.schema.createIndex('home_timeline_entry').on('home_timeline').columns(['entry_id']).execute();

    await tableOptions(db.schema.createTable('home_timeline_state'), dialect)
      .addColumn('user_id', 'integer', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
      .addColumn('ready', 'integer', flag)
      .addColumn('horizon_at', TIMESTAMP)
      .addColumn('horizon_entry', 'integer')
      .execute();

    await tableOptions(db.schema.createTable('home_timeline_fanout'), dialect)
      .addColumn('entry_id', 'integer', (c) => c.primaryKey().references('wall_entries.id').onDelete('cascade'))
      .addColumn('queued_at', TIMESTAMP, (c) => c.notNull())
      .execute();
  },
};

/**
 * The fan-out queue's lease (docs/decisions/0215): a row claimed (relayed to BullMQ, or taken by the
 * periodic job) is held until this date, so two instances never take it at once.
 */
const fanoutLease: PlazaMigration = {
  async up(db) {
    await db.schema.alterTable('home_timeline_fanout').addColumn('claimed_until', TIMESTAMP).execute();
  },
};

/**
 * A timeline row says which kind of post its entry names, as its wall entry does (docs/decisions/0230):
 * the page joins each kind to its own table and applies that surface's rule. Existing rows are wall posts'.
 */
const timelinePostType: PlazaMigration = {
  async up(db) {
    await db.schema
      .alterTable('home_timeline')
      .addColumn('post_type', 'varchar(8)', (c) => c.notNull().defaultTo('post'))
      .execute();
  },
};

export const TIMELINE_MIGRATIONS: PlazaMigrations = {
  '20261122_timeline_tables': homeTimelineTables,
  '20261127_redisq_fanout_lease': fanoutLease,
  '20261127_wallshares_timeline_post_type': timelinePostType,
};
