import type { Generated } from 'kysely';

/** Remote Follows of private accounts, waiting for an answer (docs/decisions/0210). */
export interface RemoteFollowRequestsTable {
  id: Generated<number>;
  user_id: number;
  actor_url: string;
  follow_id: string;
  requested_at: string;
}

export interface FederationFollowRequestTables {
  remote_follow_requests: RemoteFollowRequestsTable;
}

declare module '../database.js' {
  /** The follow request table joins the database type when this module is loaded. */
  interface Database extends FederationFollowRequestTables {}
}
