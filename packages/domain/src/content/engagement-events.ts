import type { Actor } from '../shared/actor.js';
import { token } from '../shared/token.js';
import type { ReactionType } from './model.js';

/** The surfaces a post lives on: a user's wall (`posts`), a community group, a page. */
export type SurfaceKind = 'wall' | 'group' | 'page';

/**
 * Where a notice about a post or comment points, as its surface's policy says: the wall names the post
 * (`post_id`); a group names itself and a web link; a page a web link. `in` is the name of the place
 * the texts end with ("… in <group>"), null where the texts name none.
 */
export interface NoticePlace {
  surface: SurfaceKind;
  post_id?: number | null;
  group_id?: number | null;
  link?: string | null;
  in?: string | null;
}

/** A reaction put on a post (added, or changed to another type), to be told to `recipientId`. */
export interface PostReactedEvent {
  actor: Actor;
  recipientId: number;
  reaction: ReactionType;
  change: 'added' | 'changed';
  place: NoticePlace;
}

/**
 * A comment (or a reply) written: the post's author and the parent comment's author, each when the
 * surface says they may be told (null otherwise); the recipients were checked to still see the post.
 */
export interface CommentedEvent {
  actor: Actor;
  commentId: number;
  postAuthorId: number | null;
  parentAuthorId: number | null;
  place: NoticePlace;
}

/** A reaction put on a comment (added or changed), to be told to the comment's author. */
export interface CommentReactedEvent {
  actor: Actor;
  recipientId: number;
  commentId: number;
  reaction: ReactionType;
  change: 'added' | 'changed';
  place: NoticePlace;
}

/** A first share of a post, to be told to its author. */
export interface SharedEvent {
  actor: Actor;
  recipientId: number;
  postId: number;
  /** Where the notice points when the post is not a wall post: a group post's group (docs/decisions/0230). */
  place?: NoticePlace;
}

/** A user named as `@name` in a post or comment they may see. */
export interface MentionedEvent {
  actor: Actor;
  recipientId: number;
  postId: number;
  commentId: number | null;
}

/**
 * What happens to the engagement around posts of every surface, for the contexts that react to it
 * (notifications raises its notices from these; content imports no notifications). Like the post
 * lifecycle listeners (post-events.ts, docs/decisions/0070), every listener is called in binding order
 * INSIDE the unit of work of the write: what it stores commits or rolls back with the reaction or
 * comment. Taking a reaction back is no event: it is never announced (shared/reaction-rule.ts).
 */
export interface EngagementListener {
  postReacted?(event: PostReactedEvent): Promise<void>;
  commented?(event: CommentedEvent): Promise<void>;
  commentReacted?(event: CommentReactedEvent): Promise<void>;
  shared?(event: SharedEvent): Promise<void>;
  mentioned?(event: MentionedEvent): Promise<void>;
}
export const EngagementListeners = token<EngagementListener>('content.EngagementListeners');

/** Calls every bound engagement listener of an event in turn; what the publishing services hold. */
export class EngagementEvents {
  constructor(private readonly listeners: readonly EngagementListener[] = []) {}

  async postReacted(event: PostReactedEvent): Promise<void> {
    for (const l of this.listeners) await l.postReacted?.(event);
  }

  async commented(event: CommentedEvent): Promise<void> {
    for (const l of this.listeners) await l.commented?.(event);
  }

  async commentReacted(event: CommentReactedEvent): Promise<void> {
    for (const l of this.listeners) await l.commentReacted?.(event);
  }

  async shared(event: SharedEvent): Promise<void> {
    for (const l of this.listeners) await l.shared?.(event);
  }

  async mentioned(event: MentionedEvent): Promise<void> {
    for (const l of this.listeners) await l.mentioned?.(event);
  }
}
