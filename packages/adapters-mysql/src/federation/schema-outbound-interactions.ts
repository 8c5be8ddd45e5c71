import type { Generated } from 'kysely';

/** Local users' reactions to remote Notes (docs/decisions/0245): one per user and Note. */
export interface OutboundRemoteReactionsTable {
  user_id: number;
  object_id: string;
  actor_url: string;
  reaction_type: string;
  activity_id: string;
  reacted_at: string;
}

/** Local users' replies to remote Notes (docs/decisions/0245). */
export interface OutboundRemoteRepliesTable {
  id: Generated<number>;
  user_id: number;
  object_id: string;
  actor_url: string;
  content: string;
  audience: string;
  created_at: string;
  /** Added by `20261127_fedreply_reply_edits` (docs/decisions/0246). */
  updated_at: string | null;
}

export interface FederationOutboundInteractionTables {
  outbound_remote_reactions: OutboundRemoteReactionsTable;
  outbound_remote_replies: OutboundRemoteRepliesTable;
}

declare module '../database.js' {
  /** The outbound interaction tables join the database type when this module is loaded. */
  interface Database extends FederationOutboundInteractionTables {}
}
