import type { Timestamp } from '../shared/time.js';

/** Kinds the mobile clients render specially; anything else is shown as generic text. */
export type NotificationType =
  | 'like'
  | 'reaction'
  | 'comment'
  | 'reply'
  | 'mention'
  | 'share'
  | 'follow'
  | 'friend_request'
  | 'friend_accept'
  | 'message'
  | 'group_message'
  | 'group_invite'
  | 'group_join_request'
  | 'group_join_approved'
  | 'group_join_rejected'
  | 'event_invite'
  // moderation: a warning (or a ban with it), a report closed without action, a mandate won or lost, a suggestion answered
  | 'warning'
  | 'ban'
  | 'report_closed'
  | 'moderator_elected'
  | 'moderator_revoked'
  | 'suggestion_status'
  | 'test';

export interface NewNotification {
  user_id: number;
  from_user_id: number | null;
  type: NotificationType;
  content?: string | null;
  post_id?: number | null;
  comment_id?: number | null;
  group_id?: number | null;
  reaction_type?: string | null;
  link?: string | null;
}

export interface NotificationRecord {
  id: number;
  user_id: number;
  from_user_id: number | null;
  type: string;
  content: string | null;
  post_id: number | null;
  comment_id: number | null;
  group_id: number | null;
  reaction_type: string | null;
  link: string | null;
  is_read: boolean;
  created_at: Timestamp;
}
