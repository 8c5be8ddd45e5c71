import type { Actor } from '../shared/actor.js';
import { token } from '../shared/token.js';

/**
 * What happens to a follow relation, for the contexts that keep something derived from the graph (the
 * precomputed home timeline) or tell someone of it (the follow notification). Multi-bound like the post
 * listeners (content/post-events.ts): every module may add one with `w.bind(FollowEventListeners, …)`,
 * and FollowService calls each of them, in binding order, INSIDE the unit of work of the change, so
 * what they write commits with it. Called only when the relation really changed (a repeated follow or
 * an unfollow of no one calls nothing).
 */
export interface FollowEventListener {
  /** `follower` is the acting account (its id is `followerId`), for listeners that name it. */
  followed?(followerId: number, followeeId: number, follower: Actor): Promise<void>;
  unfollowed?(followerId: number, followeeId: number): Promise<void>;
}
export const FollowEventListeners = token<FollowEventListener>('social.FollowEventListeners');

/** Calls every bound listener of an event in turn. */
export class FollowEvents {
  constructor(private readonly listeners: readonly FollowEventListener[] = []) {}

  async followed(follower: Actor, followeeId: number): Promise<void> {
    for (const l of this.listeners) await l.followed?.(follower.userId, followeeId, follower);
  }

  async unfollowed(followerId: number, followeeId: number): Promise<void> {
    for (const l of this.listeners) await l.unfollowed?.(followerId, followeeId);
  }
}
