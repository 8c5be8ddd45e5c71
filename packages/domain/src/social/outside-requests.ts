import type { Actor } from '../shared/actor.js';
import type { PageRequest } from '../shared/pagination.js';
import type { Timestamp } from '../shared/time.js';
import { token } from '../shared/token.js';

/**
 * Someone outside this instance asking to follow a local account (a remote actor's Follow of a
 * private account, docs/decisions/0210). Not a local user: it has no user id, so the request shows
 * who asked by its own address and names.
 */
export interface OutsideRequester {
  actor_url: string;
  /** `@name@domain`. */
  handle: string;
  username: string;
  display_name: string;
  domain: string;
  /** Absolute URL, or null. */
  avatar: string | null;
  /** HTML as the remote server wrote it. */
  summary: string;
  profile_url: string;
}

export interface OutsideRequestView {
  /** The source's own id (positive); friends.php presents it negated, apart from local request ids. */
  id: number;
  requester: OutsideRequester;
  created_at: Timestamp;
}

/**
 * Follow requests that come from outside the instance and are answered where local friend requests
 * are (friends.php's pending list, accept and reject: the app's screens). The federation module binds
 * one; without federation there is none and friends.php lists local requests only.
 */
export interface OutsideFollowRequests {
  /** The requests addressed to the caller, newest first. */
  pending(actor: Actor, page: PageRequest): Promise<{ items: OutsideRequestView[]; total: number }>;
  /** NotFound when it is not a pending request addressed to the caller; Conflict when answered meanwhile. */
  accept(actor: Actor, id: number): Promise<void>;
  reject(actor: Actor, id: number): Promise<void>;
}
export const OutsideFollowRequests = token<OutsideFollowRequests>('social.OutsideFollowRequests');
