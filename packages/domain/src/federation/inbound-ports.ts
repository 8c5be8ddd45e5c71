import type { ReactionType } from '../content/model.js';
import type { Timestamp } from '../shared/time.js';
import { token } from '../shared/token.js';

/** A remote actor's reply to a local post or comment, as stored (docs/decisions/0205). */
export interface RemoteCommentInput {
  post_id: number;
  parent_id: number | null;
  actor_url: string;
  /** The Note's id: one Note is one comment, whatever the deliveries. */
  object_id: string;
  content: string;
  created_at: Timestamp;
}

export interface StoredRemoteReaction {
  actor_url: string;
  reaction_type: ReactionType;
  created_at: Timestamp;
}

export interface StoredRemoteComment {
  id: number;
  post_id: number;
  actor_url: string;
}

/**
 * What remote actors do to local content: their replies (comments whose author is a remote actor),
 * their likes and reactions, their boosts. Every write is one conditional statement and moves the
 * post's counters only when a row really changed, so repeated and concurrent deliveries count once.
 */
export interface RemoteInteractionRepository {
  /** Stores the reply and counts it on the post; null when a comment of this Note exists already. */
  addComment(comment: RemoteCommentInput): Promise<number | null>;
  /** The comment stored for this Note, if any. */
  findComment(objectId: string): Promise<StoredRemoteComment | null>;
  /** Replaces the content of the Note's comment when `actorUrl` wrote it. */
  editComment(objectId: string, actorUrl: string, content: string, at: Timestamp): Promise<boolean>;
  /** The ids of the actor's comments (Delete(Person)). */
  commentsOf(actorUrl: string): Promise<number[]>;
  /** Adds or replaces the actor's reaction on the post (named by the activity's id); `added` moves likes_count. */
  react(
    postId: number,
    actorUrl: string,
    activityId: string,
    type: ReactionType,
    at: Timestamp,
  ): Promise<'added' | 'changed' | 'unchanged'>;
  /**
   * Removes the reaction the activity added (on a post or on a comment), only when `actorUrl` is the
   * one who reacted.
   */
  unreact(activityId: string, actorUrl: string): Promise<boolean>;
  /**
   * Adds or replaces the actor's reaction on a local comment (docs/decisions/0241), under the
   * comment's row lock; `added` moves the comment's reactions_count.
   */
  reactToComment(
    commentId: number,
    actorUrl: string,
    activityId: string,
    type: ReactionType,
    at: Timestamp,
  ): Promise<'added' | 'changed' | 'unchanged'>;
  /** Remote actors' reactions on a comment, oldest first. */
  commentReactions(commentId: number): Promise<StoredRemoteReaction[]>;
  /**
   * The remote actors who replied anywhere under the post (at most `limit`, the earliest first): the
   * thread's participants, to whom a local comment in it is delivered (docs/decisions/0240).
   */
  participants(postId: number, limit: number): Promise<string[]>;
  /** Counts the actor's boost of the post once; false when it was counted already. */
  share(postId: number, actorUrl: string, activityId: string, at: Timestamp): Promise<boolean>;
  /** Removes the boost the activity added, only when `actorUrl` boosted. */
  unshare(activityId: string, actorUrl: string): Promise<boolean>;
  /** Whether the actor follows the local user (a followers-only post is theirs to answer). */
  isFollower(userId: number, actorUrl: string): Promise<boolean>;
  /** Removes the actor's reactions (on posts and comments), boosts, follows both ways, stored notes and cached document (not its comments). */
  forgetActor(actorUrl: string): Promise<void>;
}
export const RemoteInteractionRepository = token<RemoteInteractionRepository>('federation.RemoteInteractionRepository');
