import { offsetOf, type PageRequest, type Timestamp } from '@plaza/domain';
import type {
  BookmarkEntry,
  PostType,
  ReactionType,
  SurfaceEngagementRepository,
  SurfacePostRecord,
  SurfacePostType,
  Viewer,
} from '@plaza/domain/content';
import { expressionBuilder, type Kysely, sql } from 'kysely';
import type { Database } from '../database.js';
import { insertIfAbsent } from '../dialect.js';
import { parseList } from '../json-list.js';
import { postVisibleTo } from './post-visibility.js';
import { groupPostVisibleTo, pagePostVisibleTo } from './surface-post-visibility.js';

/**
 * Bookmarks and shares of group and page posts in the `bookmarks` and `shares` tables, keyed with their
 * `post_type` (docs/decisions/0195), and the bookmark list of every surface: one range of the reader's
 * bookmarks (index bookmarks_user_created) filtered by each surface's visibility rule in the same query.
 */
export class SqlSurfaceEngagementRepository implements SurfaceEngagementRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async bookmark(type: SurfacePostType, postId: number, userId: number, at: Timestamp) {
    return insertIfAbsent(this.db, 'bookmarks', { post_type: type, post_id: postId, user_id: userId, created_at: at });
  }

  async unbookmark(type: SurfacePostType, postId: number, userId: number) {
    const r = await this.db
      .deleteFrom('bookmarks')
      .where('user_id', '=', userId)
      .where('post_type', '=', type)
      .where('post_id', '=', postId)
      .executeTakeFirst();
    return Number(r.numDeletedRows) > 0;
  }

  async share(type: SurfacePostType, postId: number, userId: number, at: Timestamp) {
    return insertIfAbsent(this.db, 'shares', { post_type: type, post_id: postId, user_id: userId, created_at: at });
  }

  async sharesCount(type: SurfacePostType, postId: number) {
    const row = await this.db
      .selectFrom('shares')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('post_type', '=', type)
      .where('post_id', '=', postId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async bookmarked(viewer: Viewer, page: PageRequest): Promise<BookmarkEntry[]> {
    const rows = await this.db
      .selectFrom('bookmarks as b')
      .select(['b.post_type', 'b.post_id', 'b.created_at'])
      .where('b.user_id', '=', viewer.userId)
      // The bookmark is the reader's row, the post is not: listed while its surface's rule lets them see it.
      .where((eb) =>
        eb.or([
          eb.and([eb('b.post_type', '=', 'post'), postVisibleTo(viewer, eb.ref('b.post_id'))]),
          eb.and([eb('b.post_type', '=', 'group'), groupPostVisibleTo(viewer.userId, eb.ref('b.post_id'))]),
          eb.and([eb('b.post_type', '=', 'page'), pagePostVisibleTo(viewer.userId, eb.ref('b.post_id'))]),
        ]),
      )
      .orderBy('b.created_at', 'desc')
      .orderBy('b.post_type', 'desc')
      .orderBy('b.post_id', 'desc')
      .limit(page.perPage + 1)
      .offset(offsetOf(page))
      .execute();
    return rows.map((r) => ({ post_type: r.post_type as PostType, post_id: r.post_id, created_at: r.created_at }));
  }

  async bookmarkedAmong(type: SurfacePostType, ids: number[], userId: number) {
    if (ids.length === 0) return new Set<number>();
    const rows = await this.db
      .selectFrom('bookmarks')
      .select('post_id')
      .where('user_id', '=', userId)
      .where('post_type', '=', type)
      .where('post_id', 'in', [...new Set(ids)])
      .execute();
    return new Set(rows.map((r) => r.post_id));
  }

  async surfacePosts(type: SurfacePostType, ids: number[], viewerId: number): Promise<SurfacePostRecord[]> {
    if (ids.length === 0) return [];
    const unique = [...new Set(ids)];
    if (type === 'group') {
      const rows = await this.db
        .selectFrom('group_posts as gp')
        .leftJoin('group_post_reactions as r', (j) => j.onRef('r.post_id', '=', 'gp.id').on('r.user_id', '=', viewerId))
        .select([
          'gp.id',
          'gp.group_id',
          'gp.user_id',
          'gp.content',
          'gp.media',
          'gp.media_type',
          'gp.tags',
          'gp.likes_count',
          'gp.comments_count',
          'gp.created_at',
          'gp.updated_at',
          'r.reaction_type',
          sharesOf('group', 'gp.id').as('shares_count'),
        ])
        .where('gp.id', 'in', unique)
        .execute();
      return rows.map((r) => ({
        post_type: 'group' as const,
        id: r.id,
        user_id: r.user_id,
        group_id: r.group_id,
        page_id: null,
        content: r.content,
        media: parseList(r.media),
        media_type: r.media_type,
        tags: parseList(r.tags),
        likes_count: Number(r.likes_count),
        comments_count: Number(r.comments_count),
        shares_count: Number(r.shares_count),
        reaction_type: (r.reaction_type as ReactionType | null) ?? null,
        created_at: r.created_at,
        updated_at: r.updated_at,
      }));
    }
    const rows = await this.db
      .selectFrom('page_posts as pp')
      .leftJoin('page_post_reactions as r', (j) => j.onRef('r.post_id', '=', 'pp.id').on('r.user_id', '=', viewerId))
      .select([
        'pp.id',
        'pp.page_id',
        'pp.user_id',
        'pp.content',
        'pp.media',
        'pp.media_type',
        'pp.like_count',
        'pp.comment_count',
        'pp.created_at',
        'pp.updated_at',
        'r.reaction_type',
        sharesOf('page', 'pp.id').as('shares_count'),
      ])
      .where('pp.id', 'in', unique)
      .execute();
    return rows.map((r) => ({
      post_type: 'page' as const,
      id: r.id,
      user_id: r.user_id,
      group_id: null,
      page_id: r.page_id,
      content: r.content,
      media: r.media ? [r.media] : [],
      media_type: r.media_type,
      tags: [],
      likes_count: Number(r.like_count),
      comments_count: Number(r.comment_count),
      shares_count: Number(r.shares_count),
      reaction_type: (r.reaction_type as ReactionType | null) ?? null,
      created_at: r.created_at,
      updated_at: r.updated_at,
    }));
  }
}

/** Shares of one post of a surface, counted on the shares key (post_type, post_id, …). */
function sharesOf(type: SurfacePostType, postId: 'gp.id' | 'pp.id') {
  return expressionBuilder<Database>()
    .selectFrom('shares as s')
    .select((e) => e.fn.countAll<number>().as('n'))
    .where('s.post_type', '=', type)
    .whereRef('s.post_id', '=', sql.ref<number>(postId));
}
