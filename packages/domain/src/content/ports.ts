import { token } from '../shared/token.js';
import type { ActorCard } from '../shared/actor.js';
import type { Timestamp } from '../shared/time.js';
import type { PageRequest } from '../shared/pagination.js';
import type {
  AuthorInfo,
  CommentRecord,
  CommentType,
  CreatedPost,
  FeedEntry,
  NewPost,
  PostRecord,
  PostView,
  ReactionType,
  StoryRecord,
} from './model.js';
import type { Viewer } from './visibility.js';

/**
 * Posts, the walls they and their shares appear on, and the lists built from them. Every list returns
 * only entries whose post the viewer may see by `canSeePost` (visibility.ts), filtered in the query so
 * that pages are full and counts are right; `findById` and `views` do not filter (their callers did).
 */
export interface PostRepository {
  /** Stores the post and its entry on the author's wall. */
  create(post: NewPost): Promise<CreatedPost>;
  findById(id: number): Promise<PostRecord | null>;
  /** The new text, and the tags when given (else the post keeps its own). */
  update(id: number, patch: { content: string; tags?: string[]; updated_at: Timestamp }): Promise<void>;
  /** Removes the post with its comments, reactions, shares and bookmarks; false when it was gone already. */
  delete(id: number): Promise<boolean>;
  /** Whether a pending report names the post: the moderators then see it (the visibility rule). */
  underReport(id: number): Promise<boolean>;
  /**
   * Feed of the viewer: wall entries (posts and shares) of followed accounts and their own, newest first.
   * Returns up to `perPage + 1` entries so the caller knows whether another page exists.
   */
  feed(viewer: Viewer, page: PageRequest): Promise<FeedEntry[]>;
  /** Posts (not shares) of public accounts, plus the viewer's own, newest first; `perPage + 1` at most. */
  global(viewer: Viewer, page: PageRequest): Promise<FeedEntry[]>;
  /** Wall of a user: their posts and shares, newest first; `perPage + 1` at most. */
  wall(userId: number, viewer: Viewer, page: PageRequest): Promise<FeedEntry[]>;
  /** Posts the viewer bookmarked (and may still see), newest bookmark first; `perPage + 1` at most. */
  bookmarked(viewer: Viewer, page: PageRequest): Promise<FeedEntry[]>;
  /** Everything a list shows for these entries, in their order, with a constant number of queries. */
  views(entries: FeedEntry[], viewerId: number): Promise<PostView[]>;
  /** Authors by id, for single views, comments and stories. */
  authors(ids: number[]): Promise<Map<number, AuthorInfo & Pick<ActorCard, 'is_private'>>>;
  /**
   * Puts a share of a group's or page's post on the sharer's wall and returns the entry's id
   * (docs/decisions/0230); the caller recorded the share first (once per user and post).
   */
  addSurfaceShare(type: 'group' | 'page', postId: number, userId: number, at: Timestamp): Promise<number>;
  /** Number of posts a user wrote. */
  countByUser(userId: number): Promise<number>;
}
export const PostRepository = token<PostRepository>('PostRepository');

/** Reactions, shares and bookmarks of posts; counters on the post move in the same transaction. */
export interface PostEngagementRepository {
  /** Adds or replaces the user's reaction; `added` when the user had none before. */
  react(postId: number, userId: number, type: ReactionType, at: Timestamp): Promise<'added' | 'changed' | 'unchanged'>;
  /** Returns false when there was no reaction. */
  unreact(postId: number, userId: number): Promise<boolean>;
  /** Reactions of a post, by type. */
  reactionCounts(postId: number): Promise<Record<string, number>>;
  /** The user's reaction on each of these posts that has one. */
  reactionsBy(userId: number, postIds: number[]): Promise<Map<number, ReactionType>>;
  /** Records a share and its wall entry, and returns the entry's id; null when the user already shared this post. */
  share(postId: number, userId: number, at: Timestamp): Promise<number | null>;
  /** Adding twice is not an error: returns false the second time. */
  bookmark(postId: number, userId: number, at: Timestamp): Promise<boolean>;
  unbookmark(postId: number, userId: number): Promise<boolean>;
}
export const PostEngagementRepository = token<PostEngagementRepository>('PostEngagementRepository');

export interface CommentRepository {
  create(comment: {
    post_id: number;
    user_id: number;
    parent_id: number | null;
    content: string;
    created_at: Timestamp;
  }): Promise<CommentRecord>;
  findById(id: number): Promise<CommentRecord | null>;
  update(id: number, content: string, at: Timestamp): Promise<void>;
  /** Deletes the comment and its replies, keeping the post's comments_count right; false when it was gone already. */
  delete(id: number): Promise<boolean>;
  /**
   * The lock every write of the post's thread takes first (the post's row): a unit of work that reads
   * before removing a comment (its lifecycle listeners) takes it as its first step, so that on MySQL
   * its reads see what a concurrent removal committed (docs/decisions/0240).
   */
  lockThread(postId: number): Promise<void>;
  /** Root comments of a post, oldest first; `perPage + 1` at most. */
  roots(postId: number, page: PageRequest): Promise<CommentRecord[]>;
  /** Direct replies to these comments of a post, oldest first. */
  replies(postId: number, parentIds: number[]): Promise<CommentRecord[]>;
  /** Which of these comments the user reacted to. */
  reactedBy(type: CommentType, commentIds: number[], userId: number): Promise<Set<number>>;
  /** One reaction per user per comment; `added` when new. Keeps reactions_count right. */
  react(
    type: CommentType,
    commentId: number,
    userId: number,
    reaction: ReactionType,
    at: Timestamp,
  ): Promise<'added' | 'changed' | 'unchanged'>;
  unreact(type: CommentType, commentId: number, userId: number): Promise<boolean>;
  reactions(type: CommentType, commentId: number): Promise<{ user_id: number; reaction_type: string; created_at: Timestamp }[]>;
  /** Reactions per comment of `type`, counted from the reaction rows (comments without any are absent). */
  countReactions(type: CommentType, commentIds: number[]): Promise<Map<number, number>>;
}
export const CommentRepository = token<CommentRepository>('CommentRepository');

/**
 * Authors of comments written elsewhere (replies from other servers, docs/decisions/0205), by the
 * actor URL a comment names: the federation context binds it; without it such comments are not listed.
 */
export interface RemoteCommentAuthors {
  of(actorUrls: string[]): Promise<Map<string, AuthorInfo>>;
}
export const RemoteCommentAuthors = token<RemoteCommentAuthors>('content.RemoteCommentAuthors');

/**
 * Reactions of remote actors on a wall post's comment (a Like or an emoji reaction whose object is
 * the comment's Note, docs/decisions/0241), with their authors as comments.php shows remote authors.
 * The federation context binds it; without it comment_reactions.php lists local reactions only.
 */
export interface RemoteCommentReactions {
  of(commentId: number): Promise<{ author: AuthorInfo; reaction_type: ReactionType; created_at: Timestamp }[]>;
}
export const RemoteCommentReactions = token<RemoteCommentReactions>('content.RemoteCommentReactions');

export interface StoryRepository {
  create(story: Omit<StoryRecord, 'id'>): Promise<StoryRecord>;
  findById(id: number): Promise<StoryRecord | null>;
  delete(id: number): Promise<void>;
  /** Stories unexpired at `now` of the given users, newest first. */
  activeOf(userIds: number[], now: Timestamp): Promise<StoryRecord[]>;
  /** Stories unexpired at `now` of the viewer and the accounts they follow, newest first. */
  activeForViewer(viewerId: number, now: Timestamp): Promise<StoryRecord[]>;
  /** Removes stories that expired at or before `now`; returns how many. */
  purgeExpired(now: Timestamp): Promise<number>;
}
export const StoryRepository = token<StoryRepository>('StoryRepository');
