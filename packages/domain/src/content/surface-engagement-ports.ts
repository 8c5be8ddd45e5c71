import type { Actor } from '../shared/actor.js';
import type { PageRequest } from '../shared/pagination.js';
import type { Timestamp } from '../shared/time.js';
import { token } from '../shared/token.js';
import type { NoticePlace } from './engagement-events.js';
import type { ReactionType } from './model.js';
import type { Viewer } from './visibility.js';

/**
 * Which posts a bookmark or a share names (docs/decisions/0195): `post` a wall post (content's own),
 * `group` a community group's, `page` a page's: the vocabulary of the Post model's `type` (contract
 * §35.1) and of reports.post_type. Each kind has its own id space.
 */
export const POST_TYPES = ['post', 'group', 'page'] as const;
export type PostType = (typeof POST_TYPES)[number];
export type SurfacePostType = Exclude<PostType, 'post'>;

/** What engagement needs of a group or page post the actor may see. */
export interface ShareablePostRef {
  id: number;
  user_id: number;
  /**
   * Whether the post may leave its surface as a share: false for a private group's post (its
   * members' only) and a private page's (its team's only), docs/decisions/0196.
   */
  shareable: boolean;
  /**
   * Where a notice about the post points, as its surface places it (`Surface.noticePlace`); null where
   * the surface's posts tell no one (a page's, docs/decisions/0120).
   */
  notice: NoticePlace | null;
}

/**
 * Extension point of bookmarks and shares: every context whose posts can be bookmarked or shared binds
 * one lookup to the multi-bound token `SurfacePostLookups` from its module, built on its own
 * `visiblePost` (the visibility rule of its surface), the way comment targets are (comment-targets.ts).
 */
export interface SurfacePostLookup {
  readonly type: SurfacePostType;
  /** The post if it exists and the actor may see it; `NotFound` `post_not_found` otherwise (both alike). */
  visiblePost(actor: Actor, postId: number): Promise<ShareablePostRef>;
}

/** Multi-bound: groups and pages add theirs. */
export const SurfacePostLookups = token<SurfacePostLookup>('content.SurfacePostLookups');

/** One bookmark of a reader's list. */
export interface BookmarkEntry {
  post_type: PostType;
  post_id: number;
  created_at: Timestamp;
}

/** A group or page post as a bookmark list or a search shows it, before its author is attached. */
export interface SurfacePostRecord {
  post_type: SurfacePostType;
  id: number;
  user_id: number;
  /** The group of a group post, the page of a page post. */
  group_id: number | null;
  page_id: number | null;
  content: string;
  media: string[];
  media_type: string | null;
  tags: string[];
  likes_count: number;
  comments_count: number;
  /** Counted from the shares rows: group and page posts keep no stored counter. */
  shares_count: number;
  /** The reader's reaction, if any. */
  reaction_type: ReactionType | null;
  created_at: Timestamp;
  updated_at: Timestamp | null;
}

/**
 * Bookmarks and shares of group and page posts, and the bookmark list of every surface. Rows are keyed
 * by (post_type, post_id, user_id): a second identical write is a no-op that answers false, whatever
 * the concurrency (the key decides, not a read before the write).
 */
export interface SurfaceEngagementRepository {
  /** Adding twice is not an error: returns false the second time. */
  bookmark(type: SurfacePostType, postId: number, userId: number, at: Timestamp): Promise<boolean>;
  unbookmark(type: SurfacePostType, postId: number, userId: number): Promise<boolean>;
  /** Records the share; false when the user already shared this post. */
  share(type: SurfacePostType, postId: number, userId: number, at: Timestamp): Promise<boolean>;
  sharesCount(type: SurfacePostType, postId: number): Promise<number>;
  /**
   * The viewer's bookmarks of every surface whose post still exists and the viewer may still see by
   * its surface's rule (wall: `canSeePost`; group: `canSeeGroupContent`; page: `canSeePage`), decided
   * in the query so pages are full; newest bookmark first, `perPage + 1` at most.
   */
  bookmarked(viewer: Viewer, page: PageRequest): Promise<BookmarkEntry[]>;
  /** Which of these posts of one kind the user bookmarked. */
  bookmarkedAmong(type: SurfacePostType, ids: number[], userId: number): Promise<Set<number>>;
  /** These group or page posts as `viewerId` sees them (reaction), in one query per type; unknown ids absent. */
  surfacePosts(type: SurfacePostType, ids: number[], viewerId: number): Promise<SurfacePostRecord[]>;
}
export const SurfaceEngagementRepository = token<SurfaceEngagementRepository>('content.SurfaceEngagementRepository');
