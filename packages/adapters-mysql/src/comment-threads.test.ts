import SqliteDatabase from 'better-sqlite3';
import { Kysely, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { chunks } from './batches.js';
import { deleteCommentReactions } from './comment-threads.js';
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
    const left = await db.selectFrom('comment_reactions').select(['comment_type', (eb) => eb.fn.countAll<number>().as('n')]).groupBy('comment_type').orderBy('comment_type').execute();
    expect(left).toEqual([
      { comment_type: 'group', n: 40_000 },
      { comment_type: 'post', n: 1 },
    ]);
    await db.destroy();
  });
});
