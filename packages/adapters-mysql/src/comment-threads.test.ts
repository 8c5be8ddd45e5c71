import SqliteDatabase from 'better-sqlite3';
import { Kysely, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { chunks } from './batches.js';
import { CommentThreads, deleteCommentReactions } from './comment-threads.js';
import type { Database } from './database.js';
import { fairSqliteDialect } from './fair-sqlite.js';

describe('deleteCommentReactions', () => {
  it("removes one kind's reactions of a thread longer than SQLite's parameter cap, and no other kind's", async () => {
    const db = new Kysely<Database>({ dialect: fairSqliteDialect(new SqliteDatabase(':memory:')) });
    // Only the columns the statement touches: the repositories' own tests run on the migrated schema.
    await sql`create table comment_reactions (comment_type text, comment_id integer, user_id integer)`.execute(db);
    // More ids than one statement may bind on SQLite (32,766): a single `in (…)` list would fail.
    const ids = Array.from({ length: 40_000 }, (_, i) => i + 1);
    for (const chunk of chunks(ids)) {
      const rows = chunk.flatMap((id) => [sql`('post', ${id}, 1)`, sql`('group', ${id}, 1)`]);
      await sql`insert into comment_reactions (comment_type, comment_id, user_id) values ${sql.join(rows)}`.execute(db);
    }
    await deleteCommentReactions(db, 'post', ids.slice(1));
    const left = await db
      .selectFrom('comment_reactions')
      .select(['comment_type', (eb) => eb.fn.countAll<number>().as('n')])
      .groupBy('comment_type')
      .orderBy('comment_type')
      .execute();
    expect(left).toEqual([
      { comment_type: 'group', n: 40_000 },
      { comment_type: 'post', n: 1 },
    ]);
    await db.destroy();
  });
});

describe('CommentThreads.eraseAuthor', () => {
  it.each([
    ['comments', 'post', 'group'],
    ['group_comments', 'group', 'post'],
  ] as const)(
    "removes the author's unanswered %s up a chain of their own replies, and empties the answered ones",
    async (table, type, otherType) => {
      const db = new Kysely<Database>({ dialect: fairSqliteDialect(new SqliteDatabase(':memory:')) });
      await sql`create table ${sql.table(table)} (id integer primary key, post_id integer, parent_id integer, user_id integer, content text, updated_at text)`.execute(
        db,
      );
      await sql`create table comment_reactions (comment_type text, comment_id integer, user_id integer)`.execute(db);
      const author = 1;
      const other = 2;
      // 1 ← 2 ← 3: the author answering themself; 4 answered by someone else (5); 6 someone else's.
      const rows: [number, number | null, number][] = [
        [1, null, author],
        [2, 1, author],
        [3, 2, author],
        [4, null, author],
        [5, 4, other],
        [6, null, other],
      ];
      for (const [id, parent, user] of rows) {
        await sql`insert into ${sql.table(table)} (id, post_id, parent_id, user_id, content) values (${id}, 7, ${parent}, ${user}, ${'text ' + id})`.execute(
          db,
        );
        for (const kind of [type, otherType]) await sql`insert into comment_reactions values (${kind}, ${id}, ${other})`.execute(db);
      }

      await new CommentThreads(db, table).eraseAuthor(author, '2026-11-23 00:00:00');

      const left = await sql<{
        id: number;
        content: string;
        updated_at: string | null;
      }>`select id, content, updated_at from ${sql.table(table)} order by id`.execute(db);
      expect(left.rows).toEqual([
        { id: 4, content: '', updated_at: '2026-11-23 00:00:00' },
        { id: 5, content: 'text 5', updated_at: null },
        { id: 6, content: 'text 6', updated_at: null },
      ]);
      const reactions = await db
        .selectFrom('comment_reactions')
        .select(['comment_type', 'comment_id'])
        .where('comment_type', '=', type)
        .orderBy('comment_id')
        .execute();
      expect(reactions.map((r) => r.comment_id)).toEqual([4, 5, 6]);
      const others = await db.selectFrom('comment_reactions').select('comment_id').where('comment_type', '=', otherType).execute();
      expect(others).toHaveLength(6);
      await db.destroy();
    },
  );
});
