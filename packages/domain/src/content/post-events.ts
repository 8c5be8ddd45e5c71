import { token } from '../shared/token.js';
import type { Timestamp } from '../shared/time.js';
import type { CreatedPost, PostRecord } from './model.js';

/** A share as the listeners see it: who shared which post, and its new wall entry (id and date). */
export interface ShareEvent {
  post: PostRecord;
  userId: number;
  entryId: number;
  at: Timestamp;
}

/**
 * A share of a group's or a page's post: a new entry on the sharer's wall naming it (docs/decisions/0230).
 * An event of its own, not a `ShareEvent`: federation announces shares of wall posts and must never
 * announce these (a group's posts do not federate; a page's not yet).
 */
export interface SurfaceShareEvent {
  post_type: 'group' | 'page';
  post_id: number;
  userId: number;
  entryId: number;
  at: Timestamp;
}

/**
 * What happens to a post, for the contexts that keep something derived from posts (the precomputed
 * home timeline, federation's outbox, search). Several listeners may be bound (multi-binding: each
 * module adds its own with `w.bind(PostEventListeners, …)`); the content services call every one of
 * them, in binding order, INSIDE the unit of work of the write: what a listener writes through its
 * repositories commits or rolls back with the post, and a listener that throws undoes the write.
 *
 * So a listener must be quick and only write rows (in the ambient transaction); slow or external
 * work (delivery to remote servers, a fan-out to a million followers) is queued here and done by a
 * job after the commit. Every method may be absent: a listener implements the events it cares about.
 * The post is the stored row at that moment (after the edit; before the removal).
 */
export interface PostEventListener {
  /** A new post was stored, with its entry on its author's wall (`wall_entry_id`). */
  published?(post: CreatedPost): Promise<void>;
  /** Its content or tags changed. */
  edited?(post: PostRecord): Promise<void>;
  /** It is about to be removed, with its comments, reactions, shares and bookmarks. */
  removed?(post: PostRecord): Promise<void>;
  /** A user shared it: a new entry on the sharer's wall (not called again for a repeated share). */
  shared?(share: ShareEvent): Promise<void>;
  /** A user shared a group's or page's post: a new entry on the sharer's wall. */
  surfaceShared?(share: SurfaceShareEvent): Promise<void>;
}
export const PostEventListeners = token<PostEventListener>('content.PostEventListeners');

/** Calls every bound listener of an event in turn; what the services hold instead of the list. */
export class PostEvents {
  constructor(private readonly listeners: readonly PostEventListener[] = []) {}

  async published(post: CreatedPost): Promise<void> {
    for (const l of this.listeners) await l.published?.(post);
  }

  async edited(post: PostRecord): Promise<void> {
    for (const l of this.listeners) await l.edited?.(post);
  }

  async removed(post: PostRecord): Promise<void> {
    for (const l of this.listeners) await l.removed?.(post);
  }

  async shared(share: ShareEvent): Promise<void> {
    for (const l of this.listeners) await l.shared?.(share);
  }

  async surfaceShared(share: SurfaceShareEvent): Promise<void> {
    for (const l of this.listeners) await l.surfaceShared?.(share);
  }
}
