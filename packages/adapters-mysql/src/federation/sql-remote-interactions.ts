import type { Timestamp } from '@plaza/domain';
import type { ReactionType } from '@plaza/domain/content';
import type { RemoteCommentInput, RemoteInteractionRepository, StoredRemoteComment, StoredRemoteReaction } from '@plaza/domain/federation';
import { sql, type Kysely } from 'kysely';
import { insertedId, isUniqueViolation, lockRowForUpdate, type SqlDialect } from '../dialect.js';
import type { Database } from '../database.js';
import '../content/schema.js';

/** Rows remote actors add to a local post or comment, each moving one counter of it by one. */
interface CountedRows {
  table: 'remote_post_reactions' | 'remote_comment_reactions' | 'remote_shares';
  key: 'post_id' | 'comment_id';
  counted: 'posts' | 'comments';
  counter: 'likes_count' | 'reactions_count' | 'shares_count';
}

const ON = {
  postReaction: { table: 'remote_post_reactions', key: 'post_id', counted: 'posts', counter: 'likes_count' },
  commentReaction: { table: 'remote_comment_reactions', key: 'comment_id', counted: 'comments', counter: 'reactions_count' },
  share: { table: 'remote_shares', key: 'post_id', counted: 'posts', counter: 'shares_count' },
} as const satisfies Record<string, CountedRows>;

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
    return this.putReaction(ON.postReaction, postId, actorUrl, activityId, type, at);
  }

  async unreact(activityId: string, actorUrl: string): Promise<boolean> {
    return (await this.undo(ON.postReaction, activityId, actorUrl)) || (await this.undo(ON.commentReaction, activityId, actorUrl));
  }

  async reactToComment(commentId: number, actorUrl: string, activityId: string, type: ReactionType, at: Timestamp) {
    return this.putReaction(ON.commentReaction, commentId, actorUrl, activityId, type, at);
  }

  /**
   * One reaction per actor and object, under the object's row lock: a first one is added and counted,
   * another type replaces it (Misskey allows one per note too), the same one changes nothing.
   */
  private putReaction(on: CountedRows, id: number, actorUrl: string, activityId: string, type: ReactionType, at: Timestamp) {
    return this.db.transaction().execute(async (kysely): Promise<'added' | 'changed' | 'unchanged'> => {
      await lockRowForUpdate(kysely, this.dialect, on.counted, id);
      const trx = kysely as unknown as Kysely<any>;
      const before: { activity_id: string; reaction_type: string } | undefined = await trx
        .selectFrom(on.table)
        .select(['activity_id', 'reaction_type'])
        .where(on.key, '=', id)
        .where('actor_url', '=', actorUrl)
        .executeTakeFirst();
      try {
        if (!before) {
          await trx
            .insertInto(on.table)
            .values({ [on.key]: id, actor_url: actorUrl, activity_id: activityId, reaction_type: type, created_at: at })
            .execute();
          await trx
            .updateTable(on.counted)
            .set({ [on.counter]: sql`${sql.ref(on.counter)} + 1` })
            .where('id', '=', id)
            .execute();
          return 'added';
        }
        if (before.activity_id === activityId && before.reaction_type === type) return 'unchanged';
        await trx
          .updateTable(on.table)
          .set({ activity_id: activityId, reaction_type: type, created_at: at })
          .where(on.key, '=', id)
          .where('actor_url', '=', actorUrl)
          .execute();
        return before.reaction_type === type ? 'unchanged' : 'changed';
      } catch (error) {
        // The same activity id already names another object's reaction: a replay, nothing changes.
        if (isUniqueViolation(error)) return 'unchanged';
        throw error;
      }
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
    return this.undo(ON.share, activityId, actorUrl);
  }

  /** Deletes the row the activity added when `actorUrl` is its actor, and takes it off its object's counter. */
  private async undo(on: CountedRows, activityId: string, actorUrl: string): Promise<boolean> {
    const found: Record<string, number> | undefined = await this.untyped
      .selectFrom(on.table)
      .select(on.key)
      .where('activity_id', '=', activityId)
      .where('actor_url', '=', actorUrl)
      .executeTakeFirst();
    if (!found) return false;
    const id = found[on.key];
    return this.db.transaction().execute(async (kysely) => {
      await lockRowForUpdate(kysely, this.dialect, on.counted, id);
      const trx = kysely as unknown as Kysely<any>;
      const r = await trx
        .deleteFrom(on.table)
        .where('activity_id', '=', activityId)
        .where('actor_url', '=', actorUrl)
        .where(on.key, '=', id)
        .executeTakeFirst();
      if (Number(r.numDeletedRows) === 0) return false;
      await trx
        .updateTable(on.counted)
        .set({ [on.counter]: sql`${sql.ref(on.counter)} - 1` })
        .where('id', '=', id)
        .execute();
      return true;
    });
  }

  /** Kysely cannot type a query over a table chosen at run time: the queries over `ON`'s tables name columns all of them have. */
  private get untyped(): Kysely<any> {
    return this.db as unknown as Kysely<any>;
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
    for (const on of [ON.postReaction, ON.share, ON.commentReaction]) {
      const rows = await this.untyped.selectFrom(on.table).select('activity_id').where('actor_url', '=', actorUrl).execute();
      for (const r of rows) await this.undo(on, r.activity_id as string, actorUrl);
    }
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('remote_followers').where('actor_url', '=', actorUrl).execute();
      await trx.deleteFrom('remote_following').where('actor_url', '=', actorUrl).execute();
      await trx.deleteFrom('remote_posts').where('actor_url', '=', actorUrl).execute();
      await trx.deleteFrom('remote_actors').where('actor_url', '=', actorUrl).execute();
    });
  }
}
