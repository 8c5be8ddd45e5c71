import type { PostRecord, PostView, ReactionType } from '@plaza/domain/content';
import type { Selectable, SelectQueryBuilder } from 'kysely';
import type { Database } from '../database.js';
import type { PostsTable } from './schema.js';
import { parseList } from '../json-list.js';

/** A post's row as the domain sees it. */
export function toPostRecord(row: Selectable<PostsTable>): PostRecord {
  return {
    id: row.id,
    user_id: row.user_id,
    content: row.content,
    media: parseList(row.media),
    media_type: row.media_type,
    tags: parseList(row.tags),
    likes_count: Number(row.likes_count),
    comments_count: Number(row.comments_count),
    shares_count: Number(row.shares_count),
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** A post as `withPostView` reads it: its row, its author's public columns, the viewer's reaction and bookmark. */
export interface PostViewRow extends Selectable<PostsTable> {
  author_username: string | null;
  author_avatar: string | null;
  author_militant_badge: string | null;
  author_is_technician: number | boolean | null;
  author_is_admin: number | boolean | null;
  author_is_moderator: number | boolean | null;
  viewer_reaction: string | null;
  viewer_bookmark: number | null;
}

/**
 * Adds to a query over posts `p` what a post view needs, in the same read: the author (`u`), and the
 * viewer's reaction (`r`) and bookmark (`b`), each at most one row per post (both tables are keyed by
 * post and user). Left joins, so that a query reading something else first (the timeline's state)
 * keeps its row when it has no post; a row without its author is no view (`toPostView` answers null).
 * One place for the lists (`views`) and the feed's one-query page.
 */
export function withPostView<Selected = object>(qb: SelectQueryBuilder<any, any, Selected>, viewerId: number) {
  // The builder is over any tables (the caller's `p` and whatever it read first): its rows are typed here.
  return (qb as SelectQueryBuilder<Database & { p: PostsTable }, 'p', Selected>)
    .leftJoin('users as u', 'u.id', 'p.user_id')
    .leftJoin('post_reactions as r', (j) => j.onRef('r.post_id', '=', 'p.id').on('r.user_id', '=', viewerId))
    .leftJoin('bookmarks as b', (j) => j.onRef('b.post_id', '=', 'p.id').on('b.user_id', '=', viewerId).on('b.post_type', '=', 'post'))
    .selectAll('p')
    .select([
      'u.username as author_username',
      'u.avatar as author_avatar',
      'u.militant_badge as author_militant_badge',
      'u.is_technician as author_is_technician',
      'u.is_admin as author_is_admin',
      'u.is_moderator as author_is_moderator',
      'r.reaction_type as viewer_reaction',
      'b.post_id as viewer_bookmark',
    ])
    .$castTo<PostViewRow & Selected>();
}

/** The view of a `withPostView` row in a list at `feed_date`, or null when the post or its author is gone. */
export function toPostView(row: PostViewRow, line: { feed_date: string; shared_by_username: string | null }): PostView | null {
  if (row.id === null || row.author_username === null) return null;
  return {
    post: toPostRecord(row),
    author: {
      id: row.user_id,
      username: row.author_username,
      avatar: row.author_avatar,
      militant_badge: row.author_militant_badge,
      is_technician: Boolean(row.author_is_technician),
      is_admin: Boolean(row.author_is_admin),
      is_moderator: Boolean(row.author_is_moderator),
    },
    is_liked: row.viewer_reaction !== null,
    reaction_type: (row.viewer_reaction as ReactionType | null) ?? null,
    is_bookmarked: row.viewer_bookmark !== null,
    feed_date: line.feed_date,
    shared_by_username: line.shared_by_username,
  };
}
