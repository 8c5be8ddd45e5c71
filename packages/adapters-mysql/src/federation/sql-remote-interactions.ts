import type { Timestamp } from '@plaza/domain';
import type { ReactionType } from '@plaza/domain/content';
import type { RemoteCommentInput, RemoteInteractionRepository, StoredRemoteComment, StoredRemoteReaction } from '@plaza/domain/federation';
import { sql, type Kysely } from 'kysely';
import { insertedId, isUniqueViolation, lockRowForUpdate, type SqlDialect } from '../dialect.js';
import type { Database } from '../database.js';
import '../content/schema.js';

/**
 * Remote actors' replies, reactions and boosts on local posts (docs/decisions/0205). Each write locks
 * the post first (the order every content write takes), then changes its row conditionally; the
 * post's counter moves only when a row really changed. The Note's and the activity's ids are unique
 * keys: a delivery repeated or raced stores one row.
 */
export class SqlRemoteInteractionRepository implements RemoteInteractionRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: SqlDialect,
  ) {}

  async addComment(c: RemoteCommentInput): Promise<number | null> {
    return this.db.transaction().execute(async (trx) => {
      await lockRowForUpdate(trx, this.dialect, 'posts', c.post_id);
      let id: number;
      try {
        const result = await trx
          .insertInto('comments')
          .values({
            post_id: c.post_id,
            user_id: null,
            parent_id: c.parent_id,
            content: c.content,
            created_at: c.created_at,
            remote_actor_url: c.actor_url,
            remote_object_id: c.object_id,
          })
          .executeTakeFirstOrThrow();
        id = insertedId(result);
      } catch (error) {
        if (isUniqueViolation(error)) return null;
        throw error;
      }
      await trx.updateTable('posts').set({ comments_count: sql`comments_count + 1` }).where('id', '=', c.post_id).execute();
      return id;
    });
  }

  async findComment(objectId: string): Promise<StoredRemoteComment | null> {
    const row = await this.db
      .selectFrom('comments')
      .select(['id', 'post_id', 'remote_actor_url'])
      .where('remote_object_id', '=', objectId)
      .executeTakeFirst();
    return row?.remote_actor_url ? { id: row.id, post_id: row.post_id, actor_url: row.remote_actor_url } : null;
  }

  async editComment(objectId: string, actorUrl: string, content: string, at: Timestamp): Promise<boolean> {
    const r = await this.db
      .updateTable('comments')
      .set({ content, updated_at: at })
      .where('remote_object_id', '=', objectId)
      .where('remote_actor_url', '=', actorUrl)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  async commentsOf(actorUrl: string): Promise<number[]> {
    const rows = await this.db.selectFrom('comments').select('id').where('remote_actor_url', '=', actorUrl).orderBy('id').execute();
    return rows.map((r) => r.id);
  }

  async react(postId: number, actorUrl: string, activityId: string, type: ReactionType, at: Timestamp) {
    return this.db.transaction().execute(async (trx): Promise<'added' | 'changed' | 'unchanged'> => {
      await lockRowForUpdate(trx, this.dialect, 'posts', postId);
      const before = await trx
        .selectFrom('remote_post_reactions')
        .select(['activity_id', 'reaction_type'])
        .where('post_id', '=', postId)
        .where('actor_url', '=', actorUrl)
        .executeTakeFirst();
      try {
        if (!before) {
          await trx
            .insertInto('remote_post_reactions')
            .values({ post_id: postId, actor_url: actorUrl, activity_id: activityId, reaction_type: type, created_at: at })
            .execute();
          await trx.updateTable('posts').set({ likes_count: sql`likes_count + 1` }).where('id', '=', postId).execute();
          return 'added';
        }
        if (before.activity_id === activityId && before.reaction_type === type) return 'unchanged';
        // A second reaction of the same actor replaces the first (Misskey allows one per note too).
        await trx
          .updateTable('remote_post_reactions')
          .set({ activity_id: activityId, reaction_type: type, created_at: at })
          .where('post_id', '=', postId)
          .where('actor_url', '=', actorUrl)
          .execute();
        return before.reaction_type === type ? 'unchanged' : 'changed';
      } catch (error) {
        // The same activity id already names another post's reaction: a replay, nothing changes.
        if (isUniqueViolation(error)) return 'unchanged';
        throw error;
      }
    });
  }

  async unreact(activityId: string, actorUrl: string): Promise<boolean> {
    return (
      (await this.undo('remote_post_reactions', 'likes_count', activityId, actorUrl)) ||
      (await this.undoCommentReaction(activityId, actorUrl))
    );
  }

  /** As `react`, on a comment: its row lock, then one row per comment and actor; `added` moves reactions_count. */
  async reactToComment(commentId: number, actorUrl: string, activityId: string, type: ReactionType, at: Timestamp) {
    return this.db.transaction().execute(async (trx): Promise<'added' | 'changed' | 'unchanged'> => {
      await lockRowForUpdate(trx, this.dialect, 'comments', commentId);
      const before = await trx
        .selectFrom('remote_comment_reactions')
        .select(['activity_id', 'reaction_type'])
        .where('comment_id', '=', commentId)
        .where('actor_url', '=', actorUrl)
        .executeTakeFirst();
      try {
        if (!before) {
          await trx
            .insertInto('remote_comment_reactions')
            .values({ comment_id: commentId, actor_url: actorUrl, activity_id: activityId, reaction_type: type, created_at: at })
            .execute();
          await trx.updateTable('comments').set({ reactions_count: sql`reactions_count + 1` }).where('id', '=', commentId).execute();
          return 'added';
        }
        if (before.activity_id === activityId && before.reaction_type === type) return 'unchanged';
        await trx
          .updateTable('remote_comment_reactions')
          .set({ activity_id: activityId, reaction_type: type, created_at: at })
          .where('comment_id', '=', commentId)
          .where('actor_url', '=', actorUrl)
          .execute();
        return before.reaction_type === type ? 'unchanged' : 'changed';
      } catch (error) {
        // The same activity id names another object's reaction already: a replay, nothing changes.
        if (isUniqueViolation(error)) return 'unchanged';
        throw error;
      }
    });
  }

  /** Deletes the comment reaction the activity added when `actorUrl` is its actor, and takes it off the comment's counter. */
  private async undoCommentReaction(activityId: string, actorUrl: string): Promise<boolean> {
    const found = await this.db
      .selectFrom('remote_comment_reactions')
      .select('comment_id')
      .where('activity_id', '=', activityId)
      .where('actor_url', '=', actorUrl)
      .executeTakeFirst();
    if (!found) return false;
    return this.db.transaction().execute(async (trx) => {
      await lockRowForUpdate(trx, this.dialect, 'comments', found.comment_id);
      const r = await trx
        .deleteFrom('remote_comment_reactions')
        .where('activity_id', '=', activityId)
        .where('actor_url', '=', actorUrl)
        .where('comment_id', '=', found.comment_id)
        .executeTakeFirst();
      if (Number(r.numDeletedRows) === 0) return false;
      await trx.updateTable('comments').set({ reactions_count: sql`reactions_count - 1` }).where('id', '=', found.comment_id).execute();
      return true;
    });
  }

  async commentReactions(commentId: number): Promise<StoredRemoteReaction[]> {
    const rows = await this.db
      .selectFrom('remote_comment_reactions')
      .select(['actor_url', 'reaction_type', 'created_at'])
      .where('comment_id', '=', commentId)
      .orderBy('created_at')
      .orderBy('actor_url')
      .execute();
    return rows.map((r) => ({ ...r, reaction_type: r.reaction_type as ReactionType }));
  }

  async participants(postId: number, limit: number): Promise<string[]> {
    // Served by comments_post_parent (post_id first); a thread has a handful of remote authors.
    const rows = await this.db
      .selectFrom('comments')
      .select((eb) => ['remote_actor_url', eb.fn.min('id').as('first')])
      .where('post_id', '=', postId)
      .where('remote_actor_url', 'is not', null)
      .groupBy('remote_actor_url')
      .orderBy('first')
      .limit(limit)
      .execute();
    return rows.flatMap((r) => (r.remote_actor_url ? [r.remote_actor_url] : []));
  }

  async share(postId: number, actorUrl: string, activityId: string, at: Timestamp): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      await lockRowForUpdate(trx, this.dialect, 'posts', postId);
      try {
        await trx
          .insertInto('remote_shares')
          .values({ post_id: postId, actor_url: actorUrl, activity_id: activityId, created_at: at })
          .execute();
      } catch (error) {
        if (isUniqueViolation(error)) return false;
        throw error;
      }
      await trx.updateTable('posts').set({ shares_count: sql`shares_count + 1` }).where('id', '=', postId).execute();
      return true;
    });
  }

  async unshare(activityId: string, actorUrl: string): Promise<boolean> {
    return this.undo('remote_shares', 'shares_count', activityId, actorUrl);
  }

  /** Deletes the row the activity added when `actorUrl` is its actor, and takes it off the post's counter. */
  private async undo(
    table: 'remote_post_reactions' | 'remote_shares',
    counter: 'likes_count' | 'shares_count',
    activityId: string,
    actorUrl: string,
  ): Promise<boolean> {
    const found = await this.db
      .selectFrom(table)
      .select('post_id')
      .where('activity_id', '=', activityId)
      .where('actor_url', '=', actorUrl)
      .executeTakeFirst();
    if (!found) return false;
    return this.db.transaction().execute(async (trx) => {
      await lockRowForUpdate(trx, this.dialect, 'posts', found.post_id);
      const r = await trx
        .deleteFrom(table)
        .where('activity_id', '=', activityId)
        .where('actor_url', '=', actorUrl)
        .where('post_id', '=', found.post_id)
        .executeTakeFirst();
      if (Number(r.numDeletedRows) === 0) return false;
      await trx
        .updateTable('posts')
        .set({ [counter]: sql`${sql.ref(counter)} - 1` })
        .where('id', '=', found.post_id)
        .execute();
      return true;
    });
  }

  async isFollower(userId: number, actorUrl: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('remote_followers')
      .select('user_id')
      .where('user_id', '=', userId)
      .where('actor_url', '=', actorUrl)
      .executeTakeFirst();
    return row !== undefined;
  }

  async forgetActor(actorUrl: string): Promise<void> {
    for (const [table, counter] of [
      ['remote_post_reactions', 'likes_count'],
      ['remote_shares', 'shares_count'],
    ] as const) {
      const rows = await this.db.selectFrom(table).select('activity_id').where('actor_url', '=', actorUrl).execute();
      for (const r of rows) await this.undo(table, counter, r.activity_id, actorUrl);
    }
    const onComments = await this.db
      .selectFrom('remote_comment_reactions')
      .select('activity_id')
      .where('actor_url', '=', actorUrl)
      .execute();
    for (const r of onComments) await this.undoCommentReaction(r.activity_id, actorUrl);
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('remote_followers').where('actor_url', '=', actorUrl).execute();
      await trx.deleteFrom('remote_following').where('actor_url', '=', actorUrl).execute();
      await trx.deleteFrom('remote_posts').where('actor_url', '=', actorUrl).execute();
      await trx.deleteFrom('remote_actors').where('actor_url', '=', actorUrl).execute();
    });
  }
}
