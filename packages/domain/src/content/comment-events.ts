import { token } from '../shared/token.js';
import type { CommentRecord, PostRecord } from './model.js';

/** A wall post's comment as its listeners see it: the stored row and the post it is on. */
export interface CommentEvent {
  comment: CommentRecord;
  post: PostRecord;
}

/**
 * What happens to a wall post's comments, for the contexts that send or keep something derived from
 * them (federation's outbound replies, docs/decisions/0240). Like the post lifecycle listeners
 * (post-events.ts), every bound listener is called in binding order INSIDE the unit of work of the
 * write, so it may only write rows (a queued delivery), never reach the network. The comment is the
 * stored row: after the edit, before the removal (which takes the replies below it too).
 */
export interface CommentEventListener {
  written?(event: CommentEvent): Promise<void>;
  edited?(event: CommentEvent): Promise<void>;
  removed?(event: CommentEvent): Promise<void>;
}
export const CommentEventListeners = token<CommentEventListener>('content.CommentEventListeners');

/** Calls every bound comment listener of an event in turn; what the comment service holds. */
export class CommentEvents {
  constructor(private readonly listeners: readonly CommentEventListener[] = []) {}

  async written(event: CommentEvent): Promise<void> {
    for (const l of this.listeners) await l.written?.(event);
  }

  async edited(event: CommentEvent): Promise<void> {
    for (const l of this.listeners) await l.edited?.(event);
  }

  async removed(event: CommentEvent): Promise<void> {
    for (const l of this.listeners) await l.removed?.(event);
  }
}
