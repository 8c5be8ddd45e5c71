import type { ReactionChange, Timestamp } from '@plaza/domain';
import type { ReactionType } from '@plaza/domain/content';
import { sql, type Kysely, type Selectable } from 'kysely';
import { chunks } from './batches.js';
import { CommentThreads, deleteCommentReactions, isThreadTable } from './comment-threads.js';
import type { Database } from './database.js';
import { insertedId, lockRowForUpdate, type SqlDialect } from './dialect.js';
import { putReactionRow, removeReactionRow } from './reaction-rows.js';
import type { SurfaceTables } from './surface-tables.js';

/*
 * The statements that the wall's, the groups' and the pages' post and comment repositories share,
 * over one surface's tables: each repository keeps what its surface does differently (its listing,
 * its deletion's cascade, its places' counters) and calls these for the rest.
 *
 * Kysely cannot type a query over a table chosen at run time: the queries run on an untyped handle and
 * name only columns that all three surfaces' tables have.
 */

/** Whether a pending report of the moderation context names the post (by the reports_post index). */
export async function underReport(db: Kysely<Database>, surface: SurfaceTables, postId: number): Promise<boolean> {
  const row = await db
    .selectFrom('reports')
    .select('id')
    .where('post_id', '=', postId)
    .where('post_type', '=', surface.type)
    .where('status', '=', 'pending')
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** Places' surfaces (groups, pages): their posts are listed by place. */
type PlaceSurface = SurfaceTables & { place: NonNullable<SurfaceTables['place']> };

/** A stretch of the place's posts, newest first, by the place's index. */
export async function postsOfPlace<S extends PlaceSurface>(
  db: Kysely<Database>,
  surface: S,
  placeId: number,
  stretch: { limit: number; offset: number },
): Promise<Selectable<Database[S['posts']]>[]> {
  let query = (db as Kysely<any>).selectFrom(surface.posts).selectAll().where(surface.place.column, '=', placeId);
  for (const column of surface.place.newestFirst) query = query.orderBy(column, 'desc');
  const rows = await query.limit(stretch.limit).offset(stretch.offset).execute();
  return rows as Selectable<Database[S['posts']]>[];
}

/** The user's reactions among `postIds`. */
export async function reactionsBy(
  db: Kysely<Database>,
  surface: SurfaceTables,
  userId: number,
  postIds: number[],
): Promise<Map<number, ReactionType>> {
  if (postIds.length === 0) return new Map();
  const rows: { post_id: number; reaction_type: string }[] = await (db as Kysely<any>)
    .selectFrom(surface.reactions)
    .select(['post_id', 'reaction_type'])
    .where('user_id', '=', userId)
    .where('post_id', 'in', postIds)
    .execute();
  return new Map(rows.map((r) => [r.post_id, r.reaction_type as ReactionType]));
}

/**
 * The user's reaction to a post, by the one reaction rule's storage (reaction-rows.ts), the post's
 * counter moving with it under the post's lock: each outcome is one conditional write, so identical
 * requests at once add once. `touch` dates the reaction from its last change (the wall's do).
 */
export async function putPostReaction(
  db: Kysely<Database>,
  dialect: SqlDialect,
  surface: SurfaceTables,
  reaction: { postId: number; userId: number; type: ReactionType; at: Timestamp },
  options: { touch?: boolean } = {},
): Promise<ReactionChange> {
  return db.transaction().execute(async (trx) => {
    await lockRowForUpdate(trx, dialect, surface.posts, reaction.postId);
    const key = { post_id: reaction.postId, user_id: reaction.userId };
    const change = await putReactionRow(trx, surface.reactions, key, reaction.type, reaction.at, options);
    if (change === 'added') await moveReactionsCount(trx, surface, reaction.postId, 1);
    return change;
  });
}

/** Takes the user's reaction to a post back, the post's counter with it: false when there was none. */
export async function removePostReaction(
  db: Kysely<Database>,
  dialect: SqlDialect,
  surface: SurfaceTables,
  postId: number,
  userId: number,
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    await lockRowForUpdate(trx, dialect, surface.posts, postId);
    if (!(await removeReactionRow(trx, surface.reactions, { post_id: postId, user_id: userId }))) return false;
    await moveReactionsCount(trx, surface, postId, -1);
    return true;
  });
}

async function moveReactionsCount(trx: Kysely<Database>, surface: SurfaceTables, postId: number, by: 1 | -1): Promise<void> {
  await (trx as unknown as Kysely<any>)
    .updateTable(surface.posts)
    .set({ [surface.reactionsCount]: sql`${sql.ref(surface.reactionsCount)} + ${by}` })
    .where('id', '=', postId)
    .execute();
}

/**
 * A surface's comments, written, edited and deleted the same way on every surface, their post's
 * counter following under the post's lock: the lock that a post's deletion and every comment's
 * write or deletion take, so that two of them at once never count one comment twice or not at all.
 */
export class SurfaceComments<S extends SurfaceTables> {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: SqlDialect,
    private readonly surface: S,
  ) {}

  private get untyped(): Kysely<any> {
    return this.db as unknown as Kysely<any>;
  }

  /** Inserts the comment and counts it on its post: the new comment's id. */
  async add(comment: { post_id: number }): Promise<number> {
    const { surface, dialect } = this;
    return this.untyped.transaction().execute(async (trx) => {
      await lockRowForUpdate(trx, dialect, surface.posts, comment.post_id);
      const id = insertedId(await trx.insertInto(surface.comments).values(comment).executeTakeFirstOrThrow());
      await trx
        .updateTable(surface.posts)
        .set({ [surface.commentsCount]: sql`${sql.ref(surface.commentsCount)} + 1` })
        .where('id', '=', comment.post_id)
        .execute();
      return id;
    });
  }

  async find(id: number): Promise<Selectable<Database[S['comments']]> | undefined> {
    const row = await this.untyped.selectFrom(this.surface.comments).selectAll().where('id', '=', id).executeTakeFirst();
    return row as Selectable<Database[S['comments']]> | undefined;
  }

  async edit(id: number, content: string, at: Timestamp): Promise<void> {
    await this.untyped.updateTable(this.surface.comments).set({ content, updated_at: at }).where('id', '=', id).execute();
  }

  /**
   * Deletes the comment, with every reply below it where comments nest, and their reactions
   * (comment_reactions has no foreign key to cascade by): false when it was gone already.
   */
  async delete(id: number): Promise<boolean> {
    const { surface, dialect } = this;
    const found = await this.untyped.selectFrom(surface.comments).select('post_id').where('id', '=', id).executeTakeFirst();
    if (!found) return false;
    const postId: number = found.post_id;
    return this.db.transaction().execute(async (trx) => {
      const untyped = trx as unknown as Kysely<any>;
      // The post's lock first, then the reads: on MySQL a read before it would fix the transaction's
      // snapshot, and a concurrent delete of the same thread (the comment twice, or its parent) would
      // then take the same replies off the post's count a second time.
      await lockRowForUpdate(trx, dialect, surface.posts, postId);
      if (!(await untyped.selectFrom(surface.comments).select('id').where('id', '=', id).executeTakeFirst())) return false;
      const ids = isThreadTable(surface.comments) ? await new CommentThreads(trx, surface.comments).withDescendants(postId, id) : [id];
      await deleteCommentReactions(trx, surface.type, ids);
      for (const chunk of chunks(ids)) await untyped.deleteFrom(surface.comments).where('id', 'in', chunk).execute();
      await untyped
        .updateTable(surface.posts)
        .set({ [surface.commentsCount]: sql`${sql.ref(surface.commentsCount)} - ${ids.length}` })
        .where('id', '=', postId)
        .execute();
      return true;
    });
  }
}
