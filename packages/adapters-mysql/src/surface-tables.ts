import type { CommentType } from '@plaza/domain/content';

/**
 * Where one surface (the wall, groups, pages: docs/decisions/0190) keeps what its users write: posts,
 * reactions to them and comments. The three sets of tables are alike but for their names, their
 * counters' names and whether comments nest; this is that whole difference, so that the SQL which
 * reads or writes them is written once (surface-rows.ts, surface-post-table.ts).
 */
export interface SurfaceTables {
  posts: 'posts' | 'group_posts' | 'page_posts';
  comments: 'comments' | 'group_comments' | 'page_comments';
  reactions: 'post_reactions' | 'group_post_reactions' | 'page_post_reactions';
  /** How reports, shares, bookmarks and comment_reactions name this surface's posts and comments. */
  type: CommentType;
  /** The post's counters of its reactions and comments (a page's are named in the singular). */
  reactionsCount: 'likes_count' | 'like_count';
  commentsCount: 'comments_count' | 'comment_count';
  /** Whether the posts count their shares (the wall's `shares_count`; group and page posts count none). */
  countsShares: boolean;
  /** Whether the comments count their reactions (groups' comments count none). */
  commentsCountReactions: boolean;
  /**
   * The column naming the place a post is in, and the order of the place's posts, newest first, as
   * the (place, …) index keeps them. The wall's posts are in no place: its walls are wall_entries.
   */
  place: { column: 'group_id' | 'page_id'; newestFirst: readonly ('created_at' | 'id')[] } | null;
}

export const WALL_TABLES = {
  posts: 'posts',
  comments: 'comments',
  reactions: 'post_reactions',
  type: 'post',
  reactionsCount: 'likes_count',
  commentsCount: 'comments_count',
  countsShares: true,
  commentsCountReactions: true,
  place: null,
} as const satisfies SurfaceTables;

export const GROUP_TABLES = {
  posts: 'group_posts',
  comments: 'group_comments',
  reactions: 'group_post_reactions',
  type: 'group',
  reactionsCount: 'likes_count',
  commentsCount: 'comments_count',
  countsShares: false,
  commentsCountReactions: false,
  place: { column: 'group_id', newestFirst: ['id'] },
} as const satisfies SurfaceTables;

export const PAGE_TABLES = {
  posts: 'page_posts',
  comments: 'page_comments',
  reactions: 'page_post_reactions',
  type: 'page',
  reactionsCount: 'like_count',
  commentsCount: 'comment_count',
  countsShares: false,
  commentsCountReactions: true,
  place: { column: 'page_id', newestFirst: ['created_at', 'id'] },
} as const satisfies SurfaceTables;
