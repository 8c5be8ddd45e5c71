export interface FollowsTable {
  follower_id: number;
  followee_id: number;
  created_at: string;
}

export interface SocialTables {
  follows: FollowsTable;
}

declare module '../database.js' {
  /** The social tables join the database type when this module is loaded. */
  interface Database extends SocialTables {}
}
