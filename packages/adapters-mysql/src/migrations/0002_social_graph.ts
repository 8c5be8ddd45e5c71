import type { PlazaMigration } from './helpers.js';
import { flag, tableOptions, TIMESTAMP, withId } from './helpers.js';

/** The follow graph and notifications: every later feature relates users and notifies them. */
export const socialGraph: PlazaMigration = {
  async up(db, dialect) {
    await tableOptions(db.schema.createTable('follows'), dialect)
      .addColumn('follower_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('followee_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('created_at', TIMESTAMP, (c) => c.notNull())
      .addPrimaryKeyConstraint('follows_pk', ['follower_id', 'followee_id'])
      .execute();
    // Followers of a user, newest first.
    await db.schema.createIndex('follows_followee').on('follows').columns(['followee_id', 'created_at']).execute();

    await tableOptions(withId(db.schema.createTable('notifications')), dialect)
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('from_user_id', 'integer', (c) => c.references('users.id').onDelete('cascade'))
      .addColumn('type', 'varchar(64)', (c) => c.notNull())
      .addColumn('content', 'text')
      .addColumn('post_id', 'integer')
      .addColumn('comment_id', 'integer')
      .addColumn('group_id', 'integer')
      .addColumn('reaction_type', 'varchar(32)')
      .addColumn('link', 'varchar(512)')
      .addColumn('is_read', 'integer', flag)
      .addColumn('created_at', TIMESTAMP, (c) => c.notNull())
      .execute();
    // A user's notifications newest first, and the unread count.
    await db.schema.createIndex('notifications_user_id').on('notifications').columns(['user_id', 'id']).execute();
    await db.schema.createIndex('notifications_user_unread').on('notifications').columns(['user_id', 'is_read']).execute();
  },
};
