import type { Timestamp } from '@plaza/domain';
import type { PostEngagementRepository, ReactionType } from '@plaza/domain/content';
import { sql, type Kysely } from 'kysely';
import { insertedId, insertIfAbsent, lockRowForUpdate, type SqlDialect } from '../dialect.js';
import type { Database } from '../database.js';
import { putPostReaction, removePostReaction } from '../surface-post-table.js';
import { WALL_TABLES } from '../surface-tables.js';

function changed(result: { numInsertedOrUpdatedRows?: bigint } | { numDeletedRows: bigint } | { numUpdatedRows: bigint }): boolean {
  const r = result as { numInsertedOrUpdatedRows?: bigint; numDeletedRows?: bigint; numUpdatedRows?: bigint };
  return Number(r.numInsertedOrUpdatedRows ?? r.numDeletedRows ?? r.numUpdatedRows ?? 0) > 0;
}

/**
 * Reactions, shares and bookmarks. The relation row and the post's counter change in one transaction,
 * and the counter moves by an atomic `col = col ± 1` only when the relation row really changed, so
 * concurrent reactions never lose or double-count.
 */
export class SqlPostEngagementRepository implements PostEngagementRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: SqlDialect,
  ) {}

  react(postId: number, userId: number, type: ReactionType, at: Timestamp) {
    return putPostReaction(this.db, this.dialect, WALL_TABLES, { postId, userId, type, at }, { touch: true });
  }

  unreact(postId: number, userId: number) {
    return removePostReaction(this.db, this.dialect, WALL_TABLES, postId, userId);
  }

  /** Local users' reactions and remote actors' (remote_post_reactions, docs/decisions/0205), as likes_count counts both. */
  async reactionCounts(postId: number) {
    const rows = await sql<{ reaction_type: string; n: number }>`
      select reaction_type, count(*) as n from (
        select reaction_type from post_reactions where post_id = ${postId}
        union all
        select reaction_type from remote_post_reactions where post_id = ${postId}
      ) r group by reaction_type`.execute(this.db);
    return Object.fromEntries(rows.rows.map((r) => [r.reaction_type, Number(r.n)]));
  }

  async reactionsBy(userId: number, postIds: number[]) {
    if (postIds.length === 0) return new Map<number, ReactionType>();
    const rows = await this.db
      .selectFrom('post_reactions')
      .select(['post_id', 'reaction_type'])
      .where('user_id', '=', userId)
      .where('post_id', 'in', postIds)
      .execute();
    return new Map(rows.map((r) => [r.post_id, r.reaction_type as ReactionType]));
  }

  async share(postId: number, userId: number, at: Timestamp) {
    return this.db.transaction().execute(async (trx) => {
      await lockRowForUpdate(trx, this.dialect, 'posts', postId);
      if (!(await insertIfAbsent(trx, 'shares', { post_id: postId, user_id: userId, created_at: at }))) return null;
      const entry = await trx
        .insertInto('wall_entries')
        .values({ user_id: userId, post_id: postId, is_share: 1, created_at: at })
        .executeTakeFirstOrThrow();
      await trx.updateTable('posts').set({ shares_count: sql`shares_count + 1` }).where('id', '=', postId).execute();
      return insertedId(entry);
    });
  }

  async bookmark(postId: number, userId: number, at: Timestamp) {
    return insertIfAbsent(this.db, 'bookmarks', { post_id: postId, user_id: userId, created_at: at });
  }

  async unbookmark(postId: number, userId: number) {
    return changed(
      await this.db
        .deleteFrom('bookmarks')
        .where('post_type', '=', 'post')
        .where('post_id', '=', postId)
        .where('user_id', '=', userId)
        .executeTakeFirst(),
    );
  }
}
