import type { Timestamp } from '@plaza/domain';
import { sql, type Kysely, type RawBuilder } from 'kysely';
import { chunks, ownedRows } from './batches.js';
import { CommentThreads, isThreadTable } from './comment-threads.js';
import type { CounterContribution } from './counter-contributions.js';
import type { Database } from './database.js';
import type { SurfaceTables } from './surface-tables.js';

/** The rows whose counters change when a user's rows go: read before they go. */
export interface TouchedRows {
  posts: number[];
  comments: number[];
}

/**
 * One surface's share of a leaving or exporting user's data, the same on every surface: the user's
 * posts go with everything hanging on them, their reactions go, their comments go (or stay emptied
 * when answered), and the counters of others' posts and comments follow. What is not a post, a
 * reaction or a comment (memberships, teams, follows, shares, stories) stays its context's.
 */
export class SurfaceRows {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly tables: SurfaceTables,
    /** Other modules' rows that move this surface's counters too (every surface's; this one's are picked). */
    private readonly contributions: readonly CounterContribution[] = [],
  ) {}

  /** Kysely cannot type a query over a table chosen at run time: every query below names columns all three surfaces have. */
  private get untyped(): Kysely<any> {
    return this.db as unknown as Kysely<any>;
  }

  /** The user's reactions to the surface's posts, as every surface exports them. */
  reactions(userId: number) {
    return ownedRows(this.db, this.tables.reactions, 'user_id', userId, ['post_id', 'reaction_type', 'created_at'], { key: 'post_id' });
  }

  /**
   * The posts and comments whose counters the user's rows feed. Call it before anything of the
   * user's goes (a context erasing more rows that feed a counter, as the wall's shares, does so
   * between this and `erase`).
   */
  async touchedBy(userId: number): Promise<TouchedRows> {
    const posts = new Set<number>();
    for (const counter of this.postCounters()) {
      let query = this.untyped.selectFrom(counter.table).select('post_id').where('user_id', '=', userId);
      if (counter.ofType) query = query.where('post_type', '=', this.tables.type);
      for (const r of await query.execute()) posts.add(r.post_id);
    }
    const comments = this.tables.commentsCountReactions
      ? (
          await this.db
            .selectFrom('comment_reactions')
            .select('comment_id')
            .where('user_id', '=', userId)
            .where('comment_type', '=', this.tables.type)
            .execute()
        ).map((r) => r.comment_id)
      : [];
    return { posts: [...posts], comments };
  }

  /**
   * Erases what the user wrote on the surface and recounts what `touched` names. The comments'
   * reactions are deleted explicitly: comment_reactions serves every kind of comment, so it has no
   * foreign key to cascade by; the posts' reactions and comments cascade with their post.
   */
  async erase(userId: number, at: Timestamp, touched: TouchedRows): Promise<void> {
    const { db, tables } = this;
    await this.eraseCommentReactionsOfPostsWhere('user_id', userId);
    await this.untyped.deleteFrom(tables.posts).where('user_id', '=', userId).execute();
    await db.deleteFrom('comment_reactions').where('comment_type', '=', tables.type).where('user_id', '=', userId).execute();
    await this.untyped.deleteFrom(tables.reactions).where('user_id', '=', userId).execute();
    // Nested comments that others answered stay in their thread, emptied, under the tombstone
    // (docs/decisions/0090); flat ones (pages') simply go.
    if (isThreadTable(tables.comments)) {
      await new CommentThreads(db, tables.comments).eraseAuthor(userId, at);
    } else {
      const own = this.untyped.selectFrom(tables.comments).select('id').where('user_id', '=', userId);
      await db.deleteFrom('comment_reactions').where('comment_type', '=', tables.type).where('comment_id', 'in', own).execute();
      await this.untyped.deleteFrom(tables.comments).where('user_id', '=', userId).execute();
    }
    await this.recount(touched);
  }

  /** Reactions to the comments under the posts whose `column` is `id` (a user's posts, or a place's before it goes). */
  async eraseCommentReactionsOfPostsWhere(column: 'user_id' | 'group_id' | 'page_id', id: number): Promise<void> {
    const { tables } = this;
    const posts = this.untyped.selectFrom(tables.posts).select('id').where(column, '=', id);
    const comments = this.untyped.selectFrom(tables.comments).select('id').where('post_id', 'in', posts);
    await this.db.deleteFrom('comment_reactions').where('comment_type', '=', tables.type).where('comment_id', 'in', comments).execute();
  }

  /**
   * The counts kept on a post row: the rows of `table` whose `post_id` is the post, only those of this
   * surface's `post_type` where the table serves every surface (shares, docs/decisions/0195), plus the
   * rows other modules keep for the same counter (`extra`: remote likes and boosts, docs/decisions/0226).
   */
  private postCounters(): { column: string; table: string; ofType: boolean; extra: CounterContribution[] }[] {
    const { tables } = this;
    return [
      { column: tables.reactionsCount, table: tables.reactions, ofType: false, extra: this.contributed('post reactions') },
      { column: tables.commentsCount, table: tables.comments, ofType: false, extra: [] },
      ...(tables.countsShares ? [{ column: 'shares_count', table: 'shares', ofType: true, extra: this.contributed('post shares') }] : []),
    ];
  }

  private contributed(counter: CounterContribution['counter']): CounterContribution[] {
    return this.contributions.filter((c) => c.surface === this.tables.type && c.counter === counter);
  }

  /**
   * Sets each touched post's and comment's counters to what their rows count now, the local ones and
   * every module's contribution: a recount, not a subtraction, so a counter that had drifted heals.
   */
  private async recount(touched: TouchedRows): Promise<void> {
    const { tables } = this;
    const postId = sql.ref(`${tables.posts}.id`);
    const counts = Object.fromEntries(
      this.postCounters().map((c) => {
        const ofType = c.ofType ? sql` and ${sql.ref(`${c.table}.post_type`)} = ${tables.type}` : sql``;
        const local = sql`(select count(*) from ${sql.table(c.table)} where ${sql.ref(`${c.table}.post_id`)} = ${postId}${ofType})`;
        return [c.column, this.plusContributions(local, c.extra, postId)];
      }),
    );
    for (const ids of chunks(touched.posts)) {
      await this.untyped.updateTable(tables.posts).set(counts).where('id', 'in', ids).execute();
    }
    const commentId = sql.ref(`${tables.comments}.id`);
    const local = sql`(select count(*) from comment_reactions where comment_reactions.comment_type = ${tables.type} and comment_reactions.comment_id = ${commentId})`;
    const reactions = this.plusContributions(local, this.contributed('comment reactions'), commentId);
    for (const ids of chunks(touched.comments)) {
      await this.untyped.updateTable(tables.comments).set({ reactions_count: reactions }).where('id', 'in', ids).execute();
    }
  }

  /** `local` plus one count of each contribution's rows keyed by `id`. */
  private plusContributions(local: RawBuilder<unknown>, extra: readonly CounterContribution[], id: RawBuilder<unknown>) {
    return extra.reduce(
      (sum, c) => sql`${sum} + (select count(*) from ${sql.table(c.table)} where ${sql.ref(`${c.table}.${c.key}`)} = ${id})`,
      local,
    );
  }
}
