import type { ReactionType } from '../content/model.js';
import type { PageRequest } from '../shared/pagination.js';
import type { Timestamp } from '../shared/time.js';
import { token } from '../shared/token.js';
import type { PageCommentRecord, PageFields, PageFollowRecord, PagePostRecord, PageRecord, PageRole, TeamMemberRecord } from './model.js';

export interface Paged<T> {
  items: T[];
  total: number;
}

/** Pages, their team (page_admins) and their followers. */
export interface PageRepository {
  /** Takes the page's write lock until the unit of work ends (a no-op outside one): team and follower changes. */
  lock(id: number): Promise<void>;
  /** Stores the page and its creator as its first admin. */
  create(page: PageFields & { created_by: number; created_at: Timestamp }): Promise<PageRecord>;
  findById(id: number): Promise<PageRecord | null>;
  findByIds(ids: number[]): Promise<PageRecord[]>;
  update(id: number, patch: Partial<PageFields>, at: Timestamp): Promise<void>;
  /** Pages the user is on the team of, newest first. */
  managedBy(userId: number, page: PageRequest): Promise<Paged<PageRecord>>;
  /** Pages the user follows, most recently followed first. */
  followedBy(userId: number, page: PageRequest): Promise<Paged<PageRecord>>;
  /** Public pages the user neither follows nor is on the team of, most followed first; `q` filters names. */
  discover(userId: number, q: string | null, page: PageRequest): Promise<Paged<PageRecord>>;
  /** The user's role on each of these pages (absent: none). */
  rolesOf(userId: number, pageIds: number[]): Promise<Map<number, PageRole>>;
  /** Which of these pages the user follows. */
  followsOf(userId: number, pageIds: number[]): Promise<Set<number>>;
  /** Follows once; true when this call added the follow (followers_count moves with it). */
  follow(pageId: number, userId: number, at: Timestamp): Promise<boolean>;
  /** True when this call removed the follow. */
  unfollow(pageId: number, userId: number): Promise<boolean>;
  /** Followers, most recent first. */
  followers(pageId: number, page: PageRequest): Promise<Paged<PageFollowRecord>>;
  /** The team, admins first, then by seniority. */
  team(pageId: number, page: PageRequest): Promise<Paged<TeamMemberRecord>>;
  /** Adds the member, or changes their role; what happened. */
  setRole(pageId: number, userId: number, role: PageRole, at: Timestamp): Promise<'added' | 'changed' | 'unchanged'>;
  /** True when this call removed the member. */
  removeMember(pageId: number, userId: number): Promise<boolean>;
  countAdmins(pageId: number): Promise<number>;
}
export const PageRepository = token<PageRepository>('PageRepository');

/** Posts of pages, their reactions, and their comments (comment_type `page` in comment_reactions). */
export interface PagePostRepository {
  /** Takes the post's write lock until the unit of work ends. */
  lock(postId: number): Promise<void>;
  create(post: Omit<PagePostRecord, 'id' | 'like_count' | 'comment_count' | 'updated_at'>): Promise<PagePostRecord>;
  findById(id: number): Promise<PagePostRecord | null>;
  update(id: number, content: string, at: Timestamp): Promise<void>;
  /** Deletes the post with its reactions, comments and the comments' reactions. */
  delete(id: number): Promise<void>;
  /** A page's posts, newest first. */
  list(pageId: number, page: PageRequest): Promise<Paged<PagePostRecord>>;
  /** The user's reaction on each of these posts. */
  reactionsOf(userId: number, postIds: number[]): Promise<Map<number, ReactionType>>;
  /** Sets the user's reaction; like_count counts reacting users. Call under the post's lock. */
  setReaction(postId: number, userId: number, type: ReactionType | null, at: Timestamp): Promise<void>;

  createComment(c: { post_id: number; user_id: number; content: string; created_at: Timestamp }): Promise<PageCommentRecord>;
  findComment(id: number): Promise<PageCommentRecord | null>;
  updateComment(id: number, content: string, at: Timestamp): Promise<void>;
  /** Deletes the comment and its reactions; comment_count moves with it. */
  deleteComment(id: number): Promise<boolean>;
  /** A post's comments, oldest first. */
  comments(postId: number, page: PageRequest): Promise<Paged<PageCommentRecord>>;
  /** Which of these comments the user reacted to. */
  commentsReactedBy(userId: number, commentIds: number[]): Promise<Set<number>>;
  /** Takes the comment's write lock until the unit of work ends: the reactions' counter (comment_reactions.php). */
  lockComment(commentId: number): Promise<void>;
  /** Moves the comment's reactions_count by one; the reaction rows themselves are content's comment_reactions. */
  adjustCommentReactions(commentId: number, delta: 1 | -1): Promise<void>;
}
export const PagePostRepository = token<PagePostRepository>('PagePostRepository');
