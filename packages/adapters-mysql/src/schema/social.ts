export interface FollowsTable {
  follower_id: number;
  followee_id: number;
  created_at: string;
}

export interface SocialTables {
  follows: FollowsTable;
}
