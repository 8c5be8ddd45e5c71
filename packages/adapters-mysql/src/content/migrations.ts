import { sql } from 'kysely';
import type { PlazaMigration } from '../migrations/helpers.js';
import { tableOptions, TIMESTAMP } from '../migrations/helpers.js';
import type { PlazaMigrations } from '../migrations/index.js';

/**
 * Bookmarks and shares of every surface (docs/decisions/0195): one `post_type` column (`post` for a
 * wall post, the vocabulary of reports.post_type and of the Post model's `type`, then `group`, `page`)
 * joins the keys, so a group post and a wall post with the same id are two rows. Every existing row
 * is a wall post's and keeps its key with `post`.
 *
 * `post_id` no longer references posts (it names a row of posts, group_posts or page_posts by the
 * type): the rows of a deleted wall post go with it in `SqlPostRepository.delete` and the account
 * erasure, and the rows of a deleted group or page post are left out at read time by the join every
 * list makes (ids are never reused: auto-increment on both dialects). The tables are rebuilt rather
 * than altered because SQLite cannot drop a foreign key or change a primary key in place; the rows
 * are copied as they are.
 */
const surfaceColumn: PlazaMigration = {
  async up(db, dialect) {
    await tableOptions(db.schema.createTable('bookmarks_next'), dialect)
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('post_type', 'varchar(8)', (c) => c.notNull().defaultTo('post'))
      .addColumn('post_id', 'integer', (c) => c.notNull())
      .addColumn('created_at', TIMESTAMP, (c) => c.notNull())
      .addPrimaryKeyConstraint('bookmarks_pk', ['user_id', 'post_type', 'post_id'])
      .execute();
    await sql`insert into bookmarks_next (user_id, post_type, post_id, created_at) select user_id, 'post', post_id, created_at from bookmarks`.execute(
      db,
    );
    await db.schema.dropTable('bookmarks').execute();
    await db.schema.alterTable('bookmarks_next').renameTo('bookmarks').execute();
    // The list: one reader's bookmarks, newest first (every surface in one range).
    await db.schema.createIndex('bookmarks_user_created').on('bookmarks').columns(['user_id', 'created_at']).execute();
    // A deleted wall post's bookmarks go by (post_type, post_id).
    await db.schema.createIndex('bookmarks_post').on('bookmarks').columns(['post_type', 'post_id']).execute();

    await tableOptions(db.schema.createTable('shares_next'), dialect)
      .addColumn('post_type', 'varchar(8)', (c) => c.notNull().defaultTo('post'))
      .addColumn('post_id', 'integer', (c) => c.notNull())
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('created_at', TIMESTAMP, (c) => c.notNull())
      .addPrimaryKeyConstraint('shares_pk', ['post_type', 'post_id', 'user_id'])
      .execute();
    await sql`insert into shares_next (post_type, post_id, user_id, created_at) select 'post', post_id, user_id, created_at from shares`.execute(
      db,
    );
    await db.schema.dropTable('shares').execute();
    await db.schema.alterTable('shares_next').renameTo('shares').execute();
    // The account export and erasure read a user's shares (was shares_user_post on (user_id, post_id)).
    await db.schema.createIndex('shares_user_post').on('shares').columns(['user_id', 'post_type', 'post_id']).execute();
  },
};

export const CONTENT_MIGRATIONS: PlazaMigrations = {
  '20261127_surfaces_bookmark_share_post_type': surfaceColumn,
};
