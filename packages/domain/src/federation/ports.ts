import type { PageRequest } from '../shared/pagination.js';
import type { Timestamp } from '../shared/time.js';
import { token } from '../shared/token.js';
import type { UserRecord } from '../accounts/user.js';
import type { CommentRecord, PostRecord } from '../content/model.js';
import type { FederationAudience } from './rules.js';
import type {
  ActorKeyPair,
  NewQueuedMessage,
  QueueEntry,
  QueuedMessage,
  QueueState,
  RemoteActor,
  RemoteFollower,
  RemoteFollowing,
  RemotePost,
  RemotePostInput,
} from './model.js';

export interface Counted<T> {
  items: T[];
  total: number;
}

/** Local users' RSA key pairs, created on first need. */
export interface ActorKeyRepository {
  find(userId: number): Promise<ActorKeyPair | null>;
  /** Stores the pair unless the user has one already; returns the pair that is stored (so two racing creations agree). */
  insertIfAbsent(pair: ActorKeyPair): Promise<ActorKeyPair>;
}
export const ActorKeyRepository = token<ActorKeyRepository>('federation.ActorKeyRepository');

/** The cache of remote actor documents. */
export interface RemoteActorRepository {
  /** Inserts or refreshes the actor (by actor URL). */
  upsert(actor: RemoteActor): Promise<void>;
  find(actorUrl: string): Promise<RemoteActor | null>;
  findMany(actorUrls: string[]): Promise<Map<string, RemoteActor>>;
}
export const RemoteActorRepository = token<RemoteActorRepository>('federation.RemoteActorRepository');

/** Remote followers of local users, and remote accounts local users follow. */
export interface RemoteFollowRepository {
  /** True when this call stored it; a repeated Follow changes nothing but its activity id. */
  addFollower(follower: RemoteFollower): Promise<boolean>;
  removeFollower(userId: number, actorUrl: string): Promise<boolean>;
  /** Removes the follower whose Follow had this id (an Undo that names the Follow by id only). */
  removeFollowerByFollowId(actorUrl: string, followId: string): Promise<boolean>;
  /** Newest first. */
  followers(userId: number, page: PageRequest): Promise<Counted<RemoteFollower>>;
  countFollowers(userId: number): Promise<number>;
  /** Whether the user has any remote follower: asked with every new post, and as cheap however many there are. */
  hasFollowers(userId: number): Promise<boolean>;
  /** Where a user's activities go: each follower's shared inbox, else its inbox, once each. */
  followerInboxes(userId: number): Promise<string[]>;

  /** True when this call stored it (pending until accepted). */
  addFollowing(following: RemoteFollowing): Promise<boolean>;
  /** Marks the follow named by our Follow activity id accepted, if it is `actorUrl`'s; false when none matched. */
  acceptFollowing(actorUrl: string, followId: string): Promise<boolean>;
  /** Removes it and returns what was stored (its Follow id is needed for the Undo). */
  removeFollowing(userId: number, actorUrl: string): Promise<RemoteFollowing | null>;
  findFollowing(userId: number, actorUrl: string): Promise<RemoteFollowing | null>;
  /** Newest first. */
  following(userId: number, page: PageRequest): Promise<Counted<RemoteFollowing>>;
  countFollowing(userId: number): Promise<number>;
  /** Both counts in one read (users.php's `fediverse_*_count`, the federation profile). */
  counts(userId: number): Promise<{ followers: number; following: number }>;
  /** Which of these actors the user follows (pending or accepted). */
  followingAmong(userId: number, actorUrls: string[]): Promise<Set<string>>;
  /** Whether any local user follows the actor: only then are its notes kept. */
  isFollowedLocally(actorUrl: string): Promise<boolean>;
  /** Removes every follow, both ways, of the known actors on this domain or its subdomains; returns how many. */
  removeAllOfDomain(domain: string): Promise<number>;
}
export const RemoteFollowRepository = token<RemoteFollowRepository>('federation.RemoteFollowRepository');

/** Notes of followed remote accounts. */
export interface RemotePostRepository {
  /** Inserts, or updates content and media of the stored object when it is the same actor's; null when another actor holds the id. */
  upsert(post: RemotePostInput, at: Timestamp): Promise<'inserted' | 'updated' | null>;
  /** Deletes the object if it is `actorUrl`'s. */
  delete(objectId: string, actorUrl: string): Promise<boolean>;
  /** Posts of the accounts the user follows, newest published first. */
  feed(userId: number, page: PageRequest): Promise<Counted<RemotePost>>;
  /** An actor's stored posts, newest first. */
  ofActor(actorUrl: string, limit: number): Promise<RemotePost[]>;
  /** Deletes the stored notes of the known actors on this domain or its subdomains; returns how many. */
  deleteOfDomain(domain: string): Promise<number>;
}
export const RemotePostRepository = token<RemotePostRepository>('federation.RemotePostRepository');

/** Fedify's key-value store (caches of remote documents and keys, inbox idempotence), on our database. */
export interface FederationKeyValues {
  /** The value unless absent or expired at `now`. */
  get(key: string, now: Timestamp): Promise<unknown | undefined>;
  set(key: string, value: unknown, expiresAt: Timestamp | null): Promise<void>;
  delete(key: string): Promise<void>;
  /** Drops entries expired at `now`; returns how many. */
  purgeExpired(now: Timestamp): Promise<number>;
}
export const FederationKeyValues = token<FederationKeyValues>('federation.FederationKeyValues');

/**
 * The persisted federation queue, shared by every instance on one database. A message is claimed
 * with a lease (`claim`), so two workers never run it at once; a worker that dies leaves it to be
 * claimed again when the lease ends.
 */
export interface FederationQueue {
  enqueue(messages: NewQueuedMessage[]): Promise<void>;
  /** Up to `limit` messages due at `now` and not leased, leased to the caller until `leaseUntil`. */
  claim(now: Timestamp, limit: number, leaseUntil: Timestamp): Promise<QueuedMessage[]>;
  complete(id: number): Promise<void>;
  /** One message still to work (not dead), whatever its due time and lease: the BullMQ lane's worker (docs/decisions/0215). */
  find(id: number): Promise<QueuedMessage | null>;
  /** Gives the message back, due at `dueAt`, with its attempt count and last error. */
  reschedule(id: number, attempts: number, dueAt: Timestamp, error: string): Promise<void>;
  /** Gives up on the message: it stays, dead (never claimed), for an administrator to retry or discard. */
  bury(id: number, attempts: number, error: string, at: Timestamp): Promise<void>;
  /** How many messages wait (leased or not, dead ones left out), for tests and health. */
  pending(channel?: string): Promise<number>;
  /** The messages of these channels in this state, oldest first (the admin panel's delivery queue). */
  list(state: QueueState, channels: string[], page: PageRequest): Promise<Counted<QueueEntry>>;
  /**
   * Makes a failing or dead message due at `now`, in place (one conditional update): false when it
   * is gone, not yet tried, or leased by a worker that is delivering it (so it is never sent twice).
   */
  retry(id: number, now: Timestamp): Promise<boolean>;
  /** Deletes a message no worker holds (one conditional delete); false when it is gone or leased. */
  discard(id: number, now: Timestamp): Promise<boolean>;
}
export const FederationQueue = token<FederationQueue>('federation.FederationQueue');

/** The network side of the fediverse (WebFinger, actor and outbox documents), through the SSRF guard. */
export interface RemoteDirectory {
  /**
   * A handle (`@name@host` or `name@host`, by WebFinger) or an actor URL; null when nothing answers as
   * an actor. Throws Invalid `remote_address_refused` when the only destinations on the way are ones
   * federation may not reach (not global unicast: docs/decisions/0111); nothing was connected to.
   */
  resolve(handleOrUrl: string): Promise<RemoteActor | null>;
  /** The latest notes of the actor's outbox (public ones), newest first. */
  recentPosts(actor: RemoteActor, limit: number): Promise<RemotePostInput[]>;
}
export const RemoteDirectory = token<RemoteDirectory>('federation.RemoteDirectory');

/** A local comment on its way out as a reply Note (docs/decisions/0240), with whom it reaches. */
export interface OutboundComment {
  comment: CommentRecord;
  /** The comment's local author: the activity's actor and signer. */
  author: UserRecord;
  /** The post's author, whose audience the comment has. */
  owner: UserRecord;
  audience: FederationAudience;
  /** Local users whose remote followers receive it (expanded at fan-out, one delivery per shared inbox). */
  followersOf: number[];
  /** More inboxes: the thread's remote participants. */
  inboxes: string[];
  /** Remote actors the Note names in `cc` (the author of the comment it answers). */
  ccs: string[];
}

/**
 * What leaves for remote servers: each call only queues (rows in the ambient transaction), the
 * deliveries happen in the queue's job after the commit.
 */
export interface FederationOutbox {
  /** A new, unique activity id (our Follow's, stored before the Follow is queued). */
  newActivityId(): string;
  /** Queues Follow with the id `followId`. */
  follow(user: UserRecord, remote: RemoteActor, followId: string): Promise<void>;
  unfollow(user: UserRecord, remote: RemoteActor, followId: string): Promise<void>;
  accept(user: UserRecord, remote: RemoteActor, followId: string): Promise<void>;
  /** Queues Create, Update or Delete of the post's Note for the user's remote followers. */
  post(kind: 'create' | 'update' | 'delete', post: PostRecord, author: UserRecord, audience: FederationAudience): Promise<void>;
  /** Queues Create, Update or Delete of a local comment's Note for its post's audience. */
  comment(kind: 'create' | 'update' | 'delete', comment: OutboundComment): Promise<void>;
}
export const FederationOutbox = token<FederationOutbox>('federation.FederationOutbox');
