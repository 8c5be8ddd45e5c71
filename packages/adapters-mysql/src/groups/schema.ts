import type { Generated } from 'kysely';

/** Community groups (groups.php); `community_` since GROUPS is a reserved word of MySQL 8. */
export interface CommunityGroupsTable {
  id: Generated<number>;
  name: string;
  description: string;
  avatar: string | null;
  cover_image: string | null;
  privacy: string;
  creator_id: number;
  members_count: Generated<number>;
  posts_count: Generated<number>;
  created_at: string;
  updated_at: string | null;
}

export interface GroupMembersTable {
  group_id: number;
  user_id: number;
  role: string;
  joined_at: string;
  /** Joining order (ties of `joined_at` within a second): the members list and the heir of a last admin. */
  seq: Generated<number>;
}

export interface GroupJoinRequestsTable {
  id: Generated<number>;
  group_id: number;
  user_id: number;
  created_at: string;
}

export interface GroupInvitationsTable {
  group_id: number;
  user_id: number;
  invited_by: number;
  created_at: string;
}

export interface GroupPostsTable {
  id: Generated<number>;
  group_id: number;
  user_id: number;
  content: string;
  /** JSON array of upload names. */
  media: string;
  media_type: string | null;
  /** JSON array of lowercase tags. */
  tags: string;
  likes_count: Generated<number>;
  comments_count: Generated<number>;
  created_at: string;
  updated_at: string | null;
}

export interface GroupPostReactionsTable {
  post_id: number;
  user_id: number;
  reaction_type: string;
  created_at: string;
}

export interface GroupCommentsTable {
  id: Generated<number>;
  post_id: number;
  group_id: number;
  user_id: number;
  parent_id: number | null;
  content: string;
  created_at: string;
  updated_at: string | null;
}

export interface GroupTables {
  community_groups: CommunityGroupsTable;
  group_members: GroupMembersTable;
  group_join_requests: GroupJoinRequestsTable;
  group_invitations: GroupInvitationsTable;
  group_posts: GroupPostsTable;
  group_post_reactions: GroupPostReactionsTable;
  group_comments: GroupCommentsTable;
}

declare module '../database.js' {
  /** The group tables join the database type when this module is loaded. */
  interface Database extends GroupTables {}
}
