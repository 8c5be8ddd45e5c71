import type { Generated } from 'kysely';

export interface FriendRequestsTable {
  id: Generated<number>;
  sender_id: number;
  receiver_id: number;
  status: string;
  created_at: string;
  responded_at: string | null;
}

export interface PrivateMessagesTable {
  id: Generated<number>;
  sender_id: number;
  receiver_id: number;
  user_low: number;
  user_high: number;
  content: string;
  media: string | null;
  media_type: string | null;
  parent_id: number | null;
  is_read: Generated<number>;
  created_at: string;
  edited_at: string | null;
  expires_at: string | null;
}

export interface ConversationsTable {
  user_id: number;
  peer_id: number;
  last_message_id: number | null;
  last_message_at: string | null;
  cleared_before_id: Generated<number>;
  auto_delete_time: Generated<number>;
}

export interface MessageReactionsTable {
  id: Generated<number>;
  message_id: number;
  user_id: number;
  reaction_type: string;
  created_at: string;
}

export interface MessageGroupsTable {
  id: Generated<number>;
  name: string;
  avatar: string | null;
  creator_id: number;
  auto_delete_time: Generated<number>;
  last_message_id: number | null;
  last_activity_at: string;
  created_at: string;
}

export interface MessageGroupMembersTable {
  group_id: number;
  user_id: number;
  role: string;
  joined_at: string;
}

export interface MessageGroupRequestsTable {
  id: Generated<number>;
  group_id: number;
  user_id: number;
  requested_by: number;
  created_at: string;
}

export interface GroupMessagesTable {
  id: Generated<number>;
  group_id: number;
  sender_id: number;
  content: string;
  media: string | null;
  media_type: string | null;
  parent_id: number | null;
  created_at: string;
  edited_at: string | null;
  expires_at: string | null;
}

export interface TypingIndicatorsTable {
  user_id: number;
  target_type: string;
  target_id: number;
  expires_at: string;
}

export interface MessagingTables {
  friend_requests: FriendRequestsTable;
  private_messages: PrivateMessagesTable;
  conversations: ConversationsTable;
  private_message_reactions: MessageReactionsTable;
  message_groups: MessageGroupsTable;
  message_group_members: MessageGroupMembersTable;
  message_group_requests: MessageGroupRequestsTable;
  group_messages: GroupMessagesTable;
  group_message_reactions: MessageReactionsTable;
  typing_indicators: TypingIndicatorsTable;
}

declare module '../database.js' {
  /** The messaging tables join the database type when this module is loaded. */
  interface Database extends MessagingTables {}
}
