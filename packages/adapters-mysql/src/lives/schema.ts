import type { Generated } from 'kysely';

export interface LivesTable {
  id: Generated<number>;
  user_id: number;
  title: string;
  description: string;
  is_public: number;
  max_guests: number;
  status: string;
  background_image: string | null;
  report_count: Generated<number>;
  is_suspended: Generated<number>;
  created_at: string;
  ended_at: string | null;
  end_reason: string | null;
}

export interface LiveViewersTable {
  live_id: number;
  user_id: number;
  last_ping_at: string | null;
  media_connected: number;
  updated_at: string;
}

export interface LiveGuestsTable {
  live_id: number;
  user_id: number;
  status: string;
  message: string | null;
  created_at: string;
  decided_at: string | null;
}

export interface LiveMembersTable {
  id: Generated<number>;
  live_id: number;
  user_id: number;
  created_at: string;
}

export interface LiveCommentsTable {
  id: Generated<number>;
  live_id: number;
  user_id: number;
  content: string;
  created_at: string;
}

export interface LiveReportsTable {
  id: Generated<number>;
  live_id: number;
  reporter_id: number;
  reason: string;
  description: string | null;
  created_at: string;
}

export interface LivesTables {
  lives: LivesTable;
  live_viewers: LiveViewersTable;
  live_guests: LiveGuestsTable;
  live_moderators: LiveMembersTable;
  live_chat_blocks: LiveMembersTable;
  live_comments: LiveCommentsTable;
  live_reports: LiveReportsTable;
}

declare module '../database.js' {
  /** The lives tables join the database type when this module is loaded. */
  interface Database extends LivesTables {}
}
