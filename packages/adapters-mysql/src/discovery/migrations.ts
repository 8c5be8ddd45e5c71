import { sql } from 'kysely';
import type { PlazaMigration } from '../migrations/helpers.js';
import type { PlazaMigrations } from '../migrations/index.js';

/**
 * The indexes search.php reads (docs/decisions/0042): post text by word (a FULLTEXT index on MySQL and
 * MariaDB, an external-content FTS5 table kept by triggers on SQLite) and display names by prefix
 * (usernames have their unique index already). Existing posts are indexed when the migration runs.
 */
const searchIndexes: PlazaMigration = {
  async up(db, dialect) {
    if (dialect === 'mysql') {
      await sql`alter table posts add fulltext index posts_content_fulltext (content)`.execute(db);
      await db.schema.createIndex('users_display_name').on('users').column('display_name').execute();
      return;
    }
    await sql`create index users_display_name_nocase on users (display_name collate nocase)`.execute(db);
    await sql`create virtual table posts_fts using fts5(content, content='posts', content_rowid='id', tokenize="unicode61 remove_diacritics 2")`.execute(
      db,
    );
    await sql`create trigger posts_fts_insert after insert on posts begin
      insert into posts_fts (rowid, content) values (new.id, new.content);
    end`.execute(db);
    await sql`create trigger posts_fts_delete after delete on posts begin
      insert into posts_fts (posts_fts, rowid, content) values ('delete', old.id, old.content);
    end`.execute(db);
    await sql`create trigger posts_fts_update after update of content on posts begin
      insert into posts_fts (posts_fts, rowid, content) values ('delete', old.id, old.content);
      insert into posts_fts (rowid, content) values (new.id, new.content);
    end`.execute(db);
    await sql`insert into posts_fts (posts_fts) values ('rebuild')`.execute(db);
  },
  async down(db, dialect) {
    if (dialect === 'mysql') {
      await sql`alter table posts drop index posts_content_fulltext`.execute(db);
      await db.schema.dropIndex('users_display_name').on('users').execute();
      return;
    }
    for (const trigger of ['posts_fts_insert', 'posts_fts_delete', 'posts_fts_update'])
      await sql`drop trigger if exists ${sql.raw(trigger)}`.execute(db);
    await sql`drop table if exists posts_fts`.execute(db);
    await sql`drop index if exists users_display_name_nocase`.execute(db);
  },
};

/**
 * The word indexes of group and page posts (docs/decisions/0197), built as the wall's are: a FULLTEXT
 * index on MySQL and MariaDB, an external-content FTS5 table kept by triggers on SQLite; existing
 * posts are indexed when the migration runs.
 */
const surfacePostIndexes: PlazaMigration = {
  async up(db, dialect) {
    for (const table of ['group_posts', 'page_posts']) {
      if (dialect === 'mysql') {
        await sql`alter table ${sql.table(table)} add fulltext index ${sql.raw(`${table}_content_fulltext`)} (content)`.execute(db);
        continue;
      }
      const fts = sql.raw(`${table}_fts`);
      const t = sql.raw(table);
      await sql`create virtual table ${fts} using fts5(content, content='${t}', content_rowid='id', tokenize="unicode61 remove_diacritics 2")`.execute(
        db,
      );
      await sql`create trigger ${sql.raw(`${table}_fts_insert`)} after insert on ${t} begin
        insert into ${fts} (rowid, content) values (new.id, new.content);
      end`.execute(db);
      await sql`create trigger ${sql.raw(`${table}_fts_delete`)} after delete on ${t} begin
        insert into ${fts} (${fts}, rowid, content) values ('delete', old.id, old.content);
      end`.execute(db);
      await sql`create trigger ${sql.raw(`${table}_fts_update`)} after update of content on ${t} begin
        insert into ${fts} (${fts}, rowid, content) values ('delete', old.id, old.content);
        insert into ${fts} (rowid, content) values (new.id, new.content);
      end`.execute(db);
      await sql`insert into ${fts} (${fts}) values ('rebuild')`.execute(db);
    }
  },
  async down(db, dialect) {
    for (const table of ['group_posts', 'page_posts']) {
      if (dialect === 'mysql') {
        await sql`alter table ${sql.table(table)} drop index ${sql.raw(`${table}_content_fulltext`)}`.execute(db);
        continue;
      }
      for (const trigger of ['insert', 'delete', 'update'])
        await sql`drop trigger if exists ${sql.raw(`${table}_fts_${trigger}`)}`.execute(db);
      await sql`drop table if exists ${sql.raw(`${table}_fts`)}`.execute(db);
    }
  },
};

export const DISCOVERY_MIGRATIONS: PlazaMigrations = {
  '20261122_discovery_search_indexes': searchIndexes,
  '20261127_surfaces_search_group_page_posts': surfacePostIndexes,
};
