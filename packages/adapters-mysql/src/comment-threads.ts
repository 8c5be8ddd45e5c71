import { type PageRequest, type Timestamp, offsetOf } from '@plaza/domain';
import type { CommentType } from '@plaza/domain/content';
import type { Kysely, Selectable } from 'kysely';
import { chunks } from './batches.js';
import type { Database } from './database.js';

/** The tables that hold a thread of comments per post (posts' and group posts'), each indexed on (post_id, parent_id, id). */
type ThreadTable = 'comments' | 'group_comments';

/** How comment_reactions names the comments of each thread table. */
const REACTION_TYPE: Record<ThreadTable, CommentType> = { comments: 'post', group_comments: 'group' };

/** Whether a comments table nests its comments (page comments are flat). */
export function isThreadTable(table: string): table is ThreadTable {
  return Object.hasOwn(REACTION_TYPE, table);
}

/**
 * The reads of a post's comment thread, one shape for both thread tables, each served by its
 * (post_id, parent_id, id) index: the roots a page at a time, the replies of some of them, and a
 * comment with every reply below it. `db` is the repositories' routing one: inside a transaction,
 * these read what it sees.
 */
export class CommentThreads<T extends ThreadTable> {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly table: T,
  ) {}

  /** Kysely cannot type a query over a table name that is a type parameter; every call below names only columns both tables have. */
  private from() {
    return this.db.selectFrom(this.table as ThreadTable);
  }

  /** A page of the post's top-level comments, oldest first (`perPage + 1` at most, as every list). */
  async roots(postId: number, page: PageRequest): Promise<Selectable<Database[T]>[]> {
    const rows = await this.from()
      .selectAll()
      .where('post_id', '=', postId)
      .where('parent_id', 'is', null)
      .orderBy('id', 'asc')
      .limit(page.perPage + 1)
      .offset(offsetOf(page))
      .execute();
    return rows as Selectable<Database[T]>[];
  }

  /** The direct replies of `parentIds` under the post, oldest first. */
  async replies(postId: number, parentIds: number[]): Promise<Selectable<Database[T]>[]> {
    if (parentIds.length === 0) return [];
    const rows = await this.from()
      .selectAll()
      .where('post_id', '=', postId)
      .where('parent_id', 'in', parentIds)
      .orderBy('id', 'asc')
      .execute();
    return rows as Selectable<Database[T]>[];
  }

  /** `id` and the ids of every reply below it, gathered level by level (one statement per level). */
  async withDescendants(postId: number, id: number): Promise<number[]> {
    const ids = [id];
    for (let frontier = [id]; frontier.length; ) {
      frontier = (await this.from().select('id').where('post_id', '=', postId).where('parent_id', 'in', frontier).execute()).map(
        (c) => c.id,
      );
      ids.push(...frontier);
    }
    return ids;
  }

  /**
   * A leaving author's comments: those nobody answered go with their reactions, leaves first, then the
   * comments they answered, and so on up; those others replied to stay in their thread, emptied, under
   * the tombstone, so that the replies keep their place.
   */
  async eraseAuthor(userId: number, at: Timestamp): Promise<void> {
    const table = this.table as ThreadTable;
    // Typed as the posts' table, for the same reason as `from()`: only columns both tables have.
    const [c, r] = [`${table} as c`, `${table} as r`] as ['comments as c', 'comments as r'];
    for (;;) {
      const leaves = await this.db
        .selectFrom(c)
        .select('c.id')
        .where('c.user_id', '=', userId)
        .where(({ not, exists, selectFrom }) => not(exists(selectFrom(r).select('r.id').whereRef('r.parent_id', '=', 'c.id'))))
        .execute();
      if (leaves.length === 0) break;
      for (const ids of chunks(leaves.map((l) => l.id))) {
        await deleteCommentReactions(this.db, REACTION_TYPE[table], ids);
        await this.db.deleteFrom(table).where('id', 'in', ids).execute();
      }
    }
    await this.db.updateTable(table).set({ content: '', updated_at: at }).where('user_id', '=', userId).execute();
  }
}

/**
 * Removes the reactions of some comments of one kind. comment_reactions has no foreign key to the
 * comment tables, so a thread's deletion removes them itself: a chunk of ids per statement, which
 * keeps each `in (…)` list short however long the thread (SQLite caps a statement's parameters).
 */
export async function deleteCommentReactions(db: Kysely<Database>, type: CommentType, commentIds: number[]): Promise<void> {
  for (const ids of chunks(commentIds)) {
    await db.deleteFrom('comment_reactions').where('comment_type', '=', type).where('comment_id', 'in', ids).execute();
  }
}
