import type { PlazaMigration } from './helpers.js';
import { flag, tableOptions, TIMESTAMP, withId } from './helpers.js';

/** Posts, their walls, reactions, shares, bookmarks, comments and stories. */
export const content: PlazaMigration = {
  async up(db, dialect) {
    await tableOptions(withId(db.schema.createTable('posts')), dialect)
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('content', 'text', (c) => c.notNull())
      .addColumn('media', 'text', (c) => c.notNull())
      .addColumn('media_type', 'varchar(16)')
      .addColumn('tags', 'text', (c) => c.notNull())
      .addColumn('likes_count', 'integer', flag)
      .addColumn('comments_count', 'integer', flag)
      .addColumn('shares_count', 'integer', flag)
      .addColumn('created_at', TIMESTAMP, (c) => c.notNull())
      .addColumn('updated_at', TIMESTAMP)
      .execute();
    await db.schema.createIndex('posts_user_created').on('posts').columns(['user_id', 'created_at', 'id']).execute();
    await db.schema.createIndex('posts_created').on('posts').columns(['created_at', 'id']).execute();

    // Walls: a post appears on its author's wall, a share on the sharer's; feeds read walls of followed accounts.
    await tableOptions(withId(db.schema.createTable('wall_entries')), dialect)
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('post_id', 'integer', (c) => c.notNull().references('posts.id').onDelete('cascade'))
      .addColumn('is_share', 'integer', flag)
      .addColumn('created_at', TIMESTAMP, (c) => c.notNull())
      .execute();
    await db.schema.createIndex('wall_entries_user_created').on('wall_entries').columns(['user_id', 'created_at', 'id']).execute();
    await db.schema.createIndex('wall_entries_created').on('wall_entries').columns(['created_at', 'id']).execute();
    await db.schema.createIndex('wall_entries_post').on('wall_entries').columns(['post_id']).execute();

    await tableOptions(db.schema.createTable('post_reactions'), dialect)
      .addColumn('post_id', 'integer', (c) => c.notNull().references('posts.id').onDelete('cascade'))
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('reaction_type', 'varchar(16)', (c) => c.notNull())
      .addColumn('created_at', TIMESTAMP, (c) => c.notNull())
      .addPrimaryKeyConstraint('post_reactions_pk', ['post_id', 'user_id'])
      .execute();
    await db.schema.createIndex('post_reactions_user').on('post_reactions').columns(['user_id', 'post_id']).execute();

    await tableOptions(db.schema.createTable('shares'), dialect)
      .addColumn('post_id', 'integer', (c) => c.notNull().references('posts.id').onDelete('cascade'))
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('created_at', TIMESTAMP, (c) => c.notNull())
      .addPrimaryKeyConstraint('shares_pk', ['post_id', 'user_id'])
      .execute();

    await tableOptions(db.schema.createTable('bookmarks'), dialect)
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('post_id', 'integer', (c) => c.notNull().references('posts.id').onDelete('cascade'))
      .addColumn('created_at', TIMESTAMP, (c) => c.notNull())
      .addPrimaryKeyConstraint('bookmarks_pk', ['user_id', 'post_id'])
      .execute();
    await db.schema.createIndex('bookmarks_user_created').on('bookmarks').columns(['user_id', 'created_at']).execute();

    await tableOptions(withId(db.schema.createTable('comments')), dialect)
      .addColumn('post_id', 'integer', (c) => c.notNull().references('posts.id').onDelete('cascade'))
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('parent_id', 'integer', (c) => c.references('comments.id').onDelete('cascade'))
      .addColumn('content', 'text', (c) => c.notNull())
      .addColumn('reactions_count', 'integer', flag)
      .addColumn('created_at', TIMESTAMP, (c) => c.notNull())
      .addColumn('updated_at', TIMESTAMP)
      .execute();
    await db.schema.createIndex('comments_post_parent').on('comments').columns(['post_id', 'parent_id', 'id']).execute();

    await tableOptions(db.schema.createTable('comment_reactions'), dialect)
      .addColumn('comment_type', 'varchar(16)', (c) => c.notNull())
      .addColumn('comment_id', 'integer', (c) => c.notNull())
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('reaction_type', 'varchar(16)', (c) => c.notNull())
      .addColumn('created_at', TIMESTAMP, (c) => c.notNull())
      .addPrimaryKeyConstraint('comment_reactions_pk', ['comment_type', 'comment_id', 'user_id'])
      .execute();

    await tableOptions(withId(db.schema.createTable('stories')), dialect)
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('media', 'varchar(255)', (c) => c.notNull())
      .addColumn('text', 'varchar(1000)', (c) => c.notNull())
      .addColumn('created_at', TIMESTAMP, (c) => c.notNull())
      .addColumn('expires_at', TIMESTAMP, (c) => c.notNull())
      .execute();
    await db.schema.createIndex('stories_user_expires').on('stories').columns(['user_id', 'expires_at']).execute();
    await db.schema.createIndex('stories_expires').on('stories').columns(['expires_at']).execute();
  },
};
