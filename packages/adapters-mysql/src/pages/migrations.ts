import type { ColumnDefinitionBuilder } from 'kysely';
import type { PlazaMigration } from '../migrations/helpers.js';
import { tableOptions, TIMESTAMP, withId } from '../migrations/helpers.js';
import type { PlazaMigrations } from '../migrations/index.js';

/** Pages, their team (page_admins), followers, posts, post reactions and comments. */
const pagesTables: PlazaMigration = {
  async up(db, dialect) {
    const users = (c: ColumnDefinitionBuilder) => c.notNull().references('users.id').onDelete('cascade');
    const text = (c: ColumnDefinitionBuilder) => c.notNull().defaultTo('');

    let pages = tableOptions(withId(db.schema.createTable('pages')), dialect)
      .addColumn('name', 'varchar(100)', (c) => c.notNull())
      .addColumn('description', 'text', (c) => c.notNull())
      .addColumn('category', 'varchar(255)', text)
      .addColumn('avatar', 'varchar(512)')
      .addColumn('cover_image', 'varchar(512)')
      .addColumn('location', 'varchar(255)', text)
      .addColumn('website', 'varchar(255)', text)
      .addColumn('privacy', 'varchar(16)', (c) => c.notNull().defaultTo('public'));
    for (const f of ['social_twitter', 'social_mastodon', 'social_instagram', 'social_tiktok', 'social_facebook', 'social_bluesky']) {
      pages = pages.addColumn(f, 'varchar(255)', text);
    }
    await pages
      .addColumn('created_by', 'integer', users)
      .addColumn('followers_count', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created_at', TIMESTAMP, (c) => c.notNull())
      .addColumn('updated_at', TIMESTAMP)
      .execute();
    // Discover: public pages, most followed first.
    await db.schema.createIndex('pages_discover').on('pages').columns(['privacy', 'followers_count', 'id']).execute();

    await tableOptions(db.schema.createTable('page_admins'), dialect)
      .addColumn('page_id', 'integer', (c) => c.notNull().references('pages.id').onDelete('cascade'))
      .addColumn('user_id', 'integer', users)
      .addColumn('role', 'varchar(16)', (c) => c.notNull())
      .addColumn('created_at', TIMESTAMP, (c) => c.notNull())
      .addPrimaryKeyConstraint('page_admins_pk', ['page_id', 'user_id'])
      .execute();
    // My pages; a page's team is read through the primary key.
    await db.schema.createIndex('page_admins_user').on('page_admins').columns(['user_id', 'page_id']).execute();

    await tableOptions(db.schema.createTable('page_follows'), dialect)
      .addColumn('page_id', 'integer', (c) => c.notNull().references('pages.id').onDelete('cascade'))
      .addColumn('user_id', 'integer', users)
      .addColumn('created_at', TIMESTAMP, (c) => c.notNull())
      .addPrimaryKeyConstraint('page_follows_pk', ['page_id', 'user_id'])
      .execute();
    // Followed pages of a user, and a page's followers, most recent first.
    await db.schema.createIndex('page_follows_user').on('page_follows').columns(['user_id', 'created_at', 'page_id']).execute();
    await db.schema.createIndex('page_follows_page').on('page_follows').columns(['page_id', 'created_at', 'user_id']).execute();

    await tableOptions(withId(db.schema.createTable('page_posts')), dialect)
      .addColumn('page_id', 'integer', (c) => c.notNull().references('pages.id').onDelete('cascade'))
      .addColumn('user_id', 'integer', users)
      .addColumn('content', 'text', (c) => c.notNull())
      .addColumn('media', 'varchar(255)')
      .addColumn('media_type', 'varchar(16)')
      .addColumn('like_count', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('comment_count', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created_at', TIMESTAMP, (c) => c.notNull())
      .addColumn('updated_at', TIMESTAMP)
      .execute();
    await db.schema.createIndex('page_posts_page').on('page_posts').columns(['page_id', 'created_at', 'id']).execute();
    await db.schema.createIndex('page_posts_user').on('page_posts').columns(['user_id', 'id']).execute();

    await tableOptions(db.schema.createTable('page_post_reactions'), dialect)
      .addColumn('post_id', 'integer', (c) => c.notNull().references('page_posts.id').onDelete('cascade'))
      .addColumn('user_id', 'integer', users)
      .addColumn('reaction_type', 'varchar(16)', (c) => c.notNull())
      .addColumn('created_at', TIMESTAMP, (c) => c.notNull())
      .addPrimaryKeyConstraint('page_post_reactions_pk', ['post_id', 'user_id'])
      .execute();
    await db.schema.createIndex('page_post_reactions_user').on('page_post_reactions').columns(['user_id', 'post_id']).execute();

    await tableOptions(withId(db.schema.createTable('page_comments')), dialect)
      .addColumn('post_id', 'integer', (c) => c.notNull().references('page_posts.id').onDelete('cascade'))
      .addColumn('user_id', 'integer', users)
      .addColumn('content', 'text', (c) => c.notNull())
      .addColumn('reactions_count', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created_at', TIMESTAMP, (c) => c.notNull())
      .addColumn('updated_at', TIMESTAMP)
      .execute();
    await db.schema.createIndex('page_comments_post').on('page_comments').columns(['post_id', 'id']).execute();
    await db.schema.createIndex('page_comments_user').on('page_comments').columns(['user_id', 'id']).execute();
  },
};

export const PAGES_MIGRATIONS: PlazaMigrations = {
  '20261122_pages_tables': pagesTables,
};
