import { type Kysely, sql } from 'kysely';
import type { PlazaMigration } from '../migrations/helpers.js';
import { flag, tableOptions, TIMESTAMP, withId } from '../migrations/helpers.js';
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

/**
 * A wall entry may name a group's or a page's post (a share of it, docs/decisions/0230): `post_type`
 * (`post`, `group`, `page`, as in shares) joins `post_id`, and `post_id` no longer references posts.
 * Every existing entry is a wall post's and keeps its id (home_timeline and its fan-out queue name
 * entries by id). A wall post's entries go with it in `SqlPostRepository.delete` and the account
 * erasure; an entry whose group or page post is gone is left out by every read's visibility rule, which
 * asks for the post, and goes with its sharer's account.
 *
 * MySQL drops the foreign key in place (its name is the server's choice: read from the table's
 * definition). SQLite cannot drop a foreign key, so the table is rebuilt and its rows copied,
 * with foreign keys off for the copy: dropping a table that home_timeline references would otherwise
 * delete its rows by cascade. Migrations run outside a transaction on SQLite, where the pragma applies.
 */
/**
 * The names of a MySQL table's foreign keys from `column` to `target`, read from SHOW CREATE TABLE:
 * information_schema would do, but MariaDB opens every table of every schema to answer it (seconds on
 * a server holding many databases).
 */
async function foreignKeysOf(db: Kysely<any>, table: string, column: string, target: string): Promise<string[]> {
  const { rows } = await sql<Record<string, string>>`show create table ${sql.id(table)}`.execute(db);
  const definition = rows[0]?.['Create Table'] ?? '';
  const pattern = /CONSTRAINT `([^`]+)` FOREIGN KEY \(`([^`]+)`\) REFERENCES `([^`]+)`/g;
  return [...definition.matchAll(pattern)].filter((m) => m[2] === column && m[3] === target).map((m) => m[1]);
}

const wallEntryPostType: PlazaMigration = {
  async up(db, dialect) {
    if (dialect === 'mysql') {
      for (const name of await foreignKeysOf(db, 'wall_entries', 'post_id', 'posts')) {
        await sql`alter table wall_entries drop foreign key ${sql.id(name)}`.execute(db);
      }
      await db.schema
        .alterTable('wall_entries')
        .addColumn('post_type', 'varchar(8)', (c) => c.notNull().defaultTo('post'))
        .execute();
      await db.schema.dropIndex('wall_entries_post').on('wall_entries').execute();
    } else {
      await sql`pragma foreign_keys = off`.execute(db);
      try {
        await withId(db.schema.createTable('wall_entries_next'))
          .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
          .addColumn('post_type', 'varchar(8)', (c) => c.notNull().defaultTo('post'))
          .addColumn('post_id', 'integer', (c) => c.notNull())
          .addColumn('is_share', 'integer', flag)
          .addColumn('created_at', TIMESTAMP, (c) => c.notNull())
          .execute();
        await sql`insert into wall_entries_next (id, user_id, post_type, post_id, is_share, created_at)
          select id, user_id, 'post', post_id, is_share, created_at from wall_entries`.execute(db);
        await db.schema.dropTable('wall_entries').execute();
        await db.schema.alterTable('wall_entries_next').renameTo('wall_entries').execute();
        await db.schema.createIndex('wall_entries_user_created').on('wall_entries').columns(['user_id', 'created_at', 'id']).execute();
        await db.schema.createIndex('wall_entries_created').on('wall_entries').columns(['created_at', 'id']).execute();
        const broken = await sql`pragma foreign_key_check`.execute(db);
        if (broken.rows.length > 0) throw new Error('wall_entries rebuild left rows naming missing rows');
      } finally {
        await sql`pragma foreign_keys = on`.execute(db);
      }
    }
    // A wall post's entries are found by kind and id (its deletion, the erasure of its author).
    await db.schema.createIndex('wall_entries_post').on('wall_entries').columns(['post_type', 'post_id']).execute();
  },
};

export const CONTENT_MIGRATIONS: PlazaMigrations = {
  '20261127_surfaces_bookmark_share_post_type': surfaceColumn,
  '20261127_wallshares_wall_entry_post_type': wallEntryPostType,
};
