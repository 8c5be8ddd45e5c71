import { type PageRequest, type Timestamp, offsetOf } from '@plaza/domain';
import type { ActorCard } from '@plaza/domain';
import type { AuthorInfo, CreatedPost, FeedEntry, NewPost, PostRecord, PostRepository, PostView, Viewer } from '@plaza/domain/content';
import type { Expression, ExpressionBuilder, Kysely, SqlBool } from 'kysely';
import { insertedId } from '../dialect.js';
import type { Database } from '../database.js';
import { preparedStatement } from '../prepared.js';
import { underReport } from '../surface-post-table.js';
import { WALL_TABLES } from '../surface-tables.js';
import { postVisibleTo } from './post-visibility.js';
import { entryVisibleTo } from './surface-post-visibility.js';
import { type PostViewRow, toPostRecord, toPostView, withPostView } from './post-view-columns.js';
import type { WallEntriesTable } from './schema.js';

type WallExpressions = ExpressionBuilder<Database & { w: WallEntriesTable }, 'w'>;

/**
 * Lists pick the page of ids first from an index (walls by user and date, posts by date), then load
 * posts, authors and the viewer's reactions and bookmarks for those ids only: a constant number of queries.
 * Every list keeps only the posts the viewer may see (`postVisibleTo`), a share as much as a post: a
 * share may carry a post of a private account the viewer does not follow.
 */
export class SqlPostRepository implements PostRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async create(post: NewPost): Promise<CreatedPost> {
    return this.db.transaction().execute(async (trx) => {
      const { user_id, content, media_type, created_at } = post;
      const id = insertedId(
        await this.insertPost(trx, user_id, content, JSON.stringify(post.media), media_type, JSON.stringify(post.tags), created_at),
      );
      const wallEntryId = insertedId(await this.insertWallEntry(trx, user_id, id, created_at));
      return { ...post, id, likes_count: 0, comments_count: 0, shares_count: 0, updated_at: null, wall_entry_id: wallEntryId };
    });
  }

  /** The two statements of every new post, prepared (prepared.ts): create-post's most frequent writes. */
  private readonly insertPost = preparedStatement(
    (userId: number, content: string, media: string, mediaType: string | null, tags: string, at: Timestamp) =>
      this.db.insertInto('posts').values({ user_id: userId, content, media, media_type: mediaType, tags, created_at: at }),
  );

  private readonly insertWallEntry = preparedStatement((userId: number, postId: number, at: Timestamp) =>
    this.db.insertInto('wall_entries').values({ user_id: userId, post_id: postId, is_share: 0, created_at: at }),
  );

  async findById(id: number) {
    const row = await this.db.selectFrom('posts').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? toPostRecord(row) : null;
  }

  async update(id: number, patch: { content: string; tags?: string[]; updated_at: Timestamp }) {
    await this.db
      .updateTable('posts')
      .set({ content: patch.content, ...(patch.tags ? { tags: JSON.stringify(patch.tags) } : {}), updated_at: patch.updated_at })
      .where('id', '=', id)
      .execute();
  }

  async delete(id: number) {
    // Children go by ON DELETE CASCADE on both dialects (SQLite runs with foreign_keys on), but for
    // bookmarks, shares and wall entries (the post's and its shares', their timeline rows going by
    // cascade), whose post_id names a post of any surface (docs/decisions/0195, 0230).
    return this.db.transaction().execute(async (trx) => {
      for (const table of ['bookmarks', 'shares', 'wall_entries'] as const) {
        await trx.deleteFrom(table).where('post_type', '=', 'post').where('post_id', '=', id).execute();
      }
      const { numDeletedRows } = await trx.deleteFrom('posts').where('id', '=', id).executeTakeFirst();
      return numDeletedRows > 0n;
    });
  }

  /** The moderation context's reports, read as `postVisibleTo` reads them. */
  underReport(id: number) {
    return underReport(this.db, WALL_TABLES, id);
  }

  async feed(viewer: Viewer, page: PageRequest): Promise<FeedEntry[]> {
    return this.wallEntries(viewer, page, (eb) =>
      eb.or([
        eb('w.user_id', '=', viewer.userId),
        eb('w.user_id', 'in', eb.selectFrom('follows').select('followee_id').where('follower_id', '=', viewer.userId)),
      ]),
    );
  }

  async global(viewer: Viewer, page: PageRequest): Promise<FeedEntry[]> {
    const rows = await this.db
      .selectFrom('posts as p')
      .select(['p.id', 'p.created_at'])
      // What global lists (public accounts and one's own), then the rule every list applies.
      .where((eb) =>
        eb.or([
          eb('p.user_id', '=', viewer.userId),
          eb.not(eb.exists(eb.selectFrom('users as u').select('u.id').whereRef('u.id', '=', 'p.user_id').where('u.is_private', '=', 1))),
        ]),
      )
      .where((eb) => postVisibleTo(viewer, eb.ref('p.id')))
      .orderBy('p.created_at', 'desc')
      .orderBy('p.id', 'desc')
      .limit(page.perPage + 1)
      .offset(offsetOf(page))
      .execute();
    return rows.map((r) => ({ post_id: r.id, shared_by: null, feed_date: r.created_at }));
  }

  async wall(userId: number, viewer: Viewer, page: PageRequest): Promise<FeedEntry[]> {
    return this.wallEntries(viewer, page, (eb) => eb('w.user_id', '=', userId));
  }

  async addSurfaceShare(type: 'group' | 'page', postId: number, userId: number, at: Timestamp) {
    return insertedId(
      await this.db
        .insertInto('wall_entries')
        .values({ user_id: userId, post_type: type, post_id: postId, is_share: 1, created_at: at })
        .executeTakeFirstOrThrow(),
    );
  }

  /**
   * A page of wall entries (posts and shares) of the walls `whose` selects, newest first, each by its
   * post's surface rule (a share of a group's or page's post by that surface's, docs/decisions/0230).
   */
  private async wallEntries(viewer: Viewer, page: PageRequest, whose: (eb: WallExpressions) => Expression<SqlBool>): Promise<FeedEntry[]> {
    const rows = await this.db
      .selectFrom('wall_entries as w')
      .select(['w.post_type', 'w.post_id', 'w.is_share', 'w.user_id', 'w.created_at'])
      .where(whose)
      .where((eb) => entryVisibleTo(viewer, eb.ref('w.post_type'), eb.ref('w.post_id')))
      .orderBy('w.created_at', 'desc')
      .orderBy('w.id', 'desc')
      .limit(page.perPage + 1)
      .offset(offsetOf(page))
      .execute();
    return rows.map((r) => ({
      ...(r.post_type === 'group' || r.post_type === 'page' ? { post_type: r.post_type } : {}),
      post_id: r.post_id,
      shared_by: r.is_share ? r.user_id : null,
      feed_date: r.created_at,
    }));
  }

  async bookmarked(viewer: Viewer, page: PageRequest): Promise<FeedEntry[]> {
    const rows = await this.db
      .selectFrom('bookmarks')
      .select(['post_id', 'created_at'])
      .where('user_id', '=', viewer.userId)
      .where('post_type', '=', 'post')
      // A bookmark is the reader's row, but the post is not: it is listed while the rule lets them see it.
      .where((eb) => postVisibleTo(viewer, eb.ref('bookmarks.post_id')))
      .orderBy('created_at', 'desc')
      .orderBy('post_id', 'desc')
      .limit(page.perPage + 1)
      .offset(offsetOf(page))
      .execute();
    return rows.map((r) => ({ post_id: r.post_id, shared_by: null, feed_date: r.created_at }));
  }

  async views(entries: FeedEntry[], viewerId: number): Promise<PostView[]> {
    if (entries.length === 0) return [];
    const postIds = [...new Set(entries.map((e) => e.post_id))];
    // One query for the posts, their authors and the viewer's reaction and bookmark; the sharers' names
    // only when the page holds shares by accounts that are not among its authors.
    const rows: PostViewRow[] = await withPostView(this.db.selectFrom('posts as p'), viewerId).where('p.id', 'in', postIds).execute();
    const byId = new Map(rows.map((r) => [r.id, r]));
    const names = new Map(rows.flatMap((r) => (r.author_username === null ? [] : [[r.user_id, r.author_username] as const])));
    const sharers = [...new Set(entries.flatMap((e) => (e.shared_by !== null && !names.has(e.shared_by) ? [e.shared_by] : [])))];
    for (const [id, sharer] of await this.authors(sharers)) names.set(id, sharer.username);
    return entries.flatMap((e) => {
      const row = byId.get(e.post_id);
      const view =
        row &&
        toPostView(row, { feed_date: e.feed_date, shared_by_username: e.shared_by !== null ? (names.get(e.shared_by) ?? null) : null });
      return view ? [view] : [];
    });
  }

  async authors(ids: number[]): Promise<Map<number, AuthorInfo & Pick<ActorCard, 'is_private'>>> {
    if (ids.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('users')
      .select(['id', 'username', 'avatar', 'militant_badge', 'is_technician', 'is_admin', 'is_moderator', 'is_private'])
      .where('id', 'in', ids)
      .execute();
    return new Map(
      rows.map((r) => [
        r.id,
        {
          id: r.id,
          username: r.username,
          avatar: r.avatar,
          militant_badge: r.militant_badge,
          is_technician: Boolean(r.is_technician),
          is_admin: Boolean(r.is_admin),
          is_moderator: Boolean(r.is_moderator),
          is_private: Boolean(r.is_private),
        },
      ]),
    );
  }

  async countByUser(userId: number) {
    const row = await this.db
      .selectFrom('posts')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }
}
