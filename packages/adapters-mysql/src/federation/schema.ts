import type { Generated } from 'kysely';

export interface FederationKeysTable {
  user_id: number;
  public_jwk: string;
  private_jwk: string;
  created_at: string;
}

export interface RemoteActorsTable {
  actor_url: string;
  inbox_url: string;
  shared_inbox_url: string | null;
  outbox_url: string | null;
  username: string;
  display_name: string;
  domain: string;
  avatar: string | null;
  summary: string;
  profile_url: string;
  fetched_at: string;
}

export interface RemoteFollowersTable {
  user_id: number;
  actor_url: string;
  follow_id: string;
  followed_at: string;
}

export interface RemoteFollowingTable {
  user_id: number;
  actor_url: string;
  follow_id: string;
  accepted: number;
  followed_at: string;
}

export interface RemotePostsTable {
  id: Generated<number>;
  object_id: string;
  actor_url: string;
  url: string;
  content: string;
  media_url: string | null;
  media_type: string | null;
  published_at: string;
  created_at: string;
  updated_at: string | null;
}

export interface FederationKvTable {
  /** SHA-256 of the key, hex: keys are arbitrary (URLs among them) and may exceed an index's width. */
  key_hash: string;
  value: string;
  expires_at: string | null;
}

export interface FederationQueueTable {
  id: Generated<number>;
  channel: string;
  payload: string;
  attempts: number;
  due_at: string;
  leased_until: string | null;
  last_error: string | null;
  dead_at: string | null;
}

export interface DomainBlocksTable {
  domain: string;
  severity: string;
  reason: string;
  created_by: number | null;
  created_at: string;
}

/** A remote actor's reaction on a local post (docs/decisions/0205). */
export interface RemotePostReactionsTable {
  post_id: number;
  actor_url: string;
  activity_id: string;
  reaction_type: string;
  created_at: string;
}

/** A remote actor's like or emoji reaction on a local wall comment (docs/decisions/0241). */
export interface RemoteCommentReactionsTable {
  comment_id: number;
  actor_url: string;
  activity_id: string;
  reaction_type: string;
  created_at: string;
}

/** A remote actor's boost of a local post. */
export interface RemoteSharesTable {
  post_id: number;
  actor_url: string;
  activity_id: string;
  created_at: string;
}

export interface FederationTables {
  federation_keys: FederationKeysTable;
  remote_actors: RemoteActorsTable;
  remote_followers: RemoteFollowersTable;
  remote_following: RemoteFollowingTable;
  remote_posts: RemotePostsTable;
  federation_kv: FederationKvTable;
  federation_queue: FederationQueueTable;
  domain_blocks: DomainBlocksTable;
  remote_post_reactions: RemotePostReactionsTable;
  remote_comment_reactions: RemoteCommentReactionsTable;
  remote_shares: RemoteSharesTable;
}

declare module '../database.js' {
  /** The federation tables join the database type when this module is loaded. */
  interface Database extends FederationTables {}
}
