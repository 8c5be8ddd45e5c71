import type { Timestamp } from '../shared/time.js';

/**
 * A remote account as Plaza last fetched it (its actor document, reduced to what the screens and the
 * deliveries need). Keyed by its actor URL, the identity of an account in the fediverse.
 */
export interface RemoteActor {
  actor_url: string;
  inbox_url: string;
  /** `endpoints.sharedInbox`: one delivery per server instead of one per follower. */
  shared_inbox_url: string | null;
  outbox_url: string | null;
  username: string;
  display_name: string;
  /** Host of the actor URL (with its port when it has one). */
  domain: string;
  avatar: string | null;
  /** HTML, as the remote server wrote it. */
  summary: string;
  profile_url: string;
  fetched_at: Timestamp;
}

/** `@name@domain`, the form the clients show. */
export function handleOf(actor: Pick<RemoteActor, 'username' | 'domain'>): string {
  return `@${actor.username}@${actor.domain}`;
}

/** Who a remote account is, from its cached document, or from its URL alone when it was never fetched. */
export function remoteIdentityOf(actorUrl: string, actor: RemoteActor | null) {
  if (actor)
    return {
      actor_url: actor.actor_url,
      username: actor.username,
      display_name: actor.display_name,
      domain: actor.domain,
      handle: handleOf(actor),
      avatar: actor.avatar,
      summary: actor.summary,
      profile_url: actor.profile_url,
    };
  const u = new URL(actorUrl);
  const username = decodeURIComponent(u.pathname.split('/').filter(Boolean).pop() ?? u.host);
  return {
    actor_url: actorUrl,
    username,
    display_name: username,
    domain: u.host,
    handle: `@${username}@${u.host}`,
    avatar: null,
    summary: '',
    profile_url: actorUrl,
  };
}

/** A remote account that follows a local user (its Follow was accepted). */
export interface RemoteFollower {
  user_id: number;
  actor_url: string;
  /** Id of the remote Follow activity, which Undo(Follow) names. */
  follow_id: string;
  followed_at: Timestamp;
}

/** A remote account a local user follows; `accepted` once the remote server sent Accept(Follow). */
export interface RemoteFollowing {
  user_id: number;
  actor_url: string;
  /** Id of our Follow activity, which the remote Accept names. */
  follow_id: string;
  accepted: boolean;
  followed_at: Timestamp;
}

/** A Note of a followed remote account, kept for the federated feed. */
export interface RemotePost {
  id: number;
  /** The remote object id (its URL). */
  object_id: string;
  actor_url: string;
  /** The object's `url` (its page), else its id. */
  url: string;
  /** HTML as the remote server wrote it. */
  content: string;
  media_url: string | null;
  media_type: 'image' | 'video' | null;
  published_at: Timestamp;
  created_at: Timestamp;
  updated_at: Timestamp | null;
}

export type RemotePostInput = Omit<RemotePost, 'id' | 'created_at' | 'updated_at'>;

/** A local user's RSA key pair, as JWK JSON. The private key is only ever read to sign. */
export interface ActorKeyPair {
  user_id: number;
  public_jwk: string;
  private_jwk: string;
  created_at: Timestamp;
}

/** A message of the persisted federation queue (deliveries, fan-outs, Fedify's inbox tasks). */
export interface QueuedMessage {
  id: number;
  channel: string;
  payload: unknown;
  attempts: number;
  due_at: Timestamp;
}

export interface NewQueuedMessage {
  channel: string;
  payload: unknown;
  due_at: Timestamp;
}

/**
 * Where an outbound message stands (the admin panel's delivery queue): `pending` (not tried yet),
 * `failing` (tried, will be retried at `due_at`), `dead` (given up: kept until retried or discarded).
 */
export const QUEUE_STATES = ['pending', 'failing', 'dead'] as const;
export type QueueState = (typeof QUEUE_STATES)[number];

/** A queue row as the delivery queue page shows it. */
export interface QueueEntry extends QueuedMessage {
  /** A worker holds it until then (it is being delivered). */
  leased_until: Timestamp | null;
  last_error: string | null;
  dead_at: Timestamp | null;
}
