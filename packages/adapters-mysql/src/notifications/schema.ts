import type { Generated } from 'kysely';

export interface NotificationsTable {
  id: Generated<number>;
  user_id: number;
  from_user_id: number | null;
  type: string;
  content: string | null;
  post_id: number | null;
  comment_id: number | null;
  group_id: number | null;
  reaction_type: string | null;
  link: string | null;
  is_read: Generated<number>;
  created_at: string;
}

export interface NotificationsTables {
  notifications: NotificationsTable;
}

declare module '../database.js' {
  /** The notifications tables join the database type when this module is loaded. */
  interface Database extends NotificationsTables {}
}
