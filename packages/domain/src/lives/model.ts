import type { Timestamp } from '../shared/time.js';

export type LiveStatus = 'active' | 'ended';
/** Why a live ended: its creator (or a moderator) ended it, a newer live of the same creator replaced it, or the media server closed its room. */
export type LiveEndReason = 'ended' | 'replaced' | 'room_finished';

export const MAX_LIVE_TITLE = 200;
export const MAX_LIVE_DESCRIPTION = 2_000;
export const MAX_GUESTS_LIMIT = 16;
export const DEFAULT_MAX_GUESTS = 8;
export const MAX_LIVE_COMMENT = 1_000;

/**
 * A viewer counts in `current_viewers` while connected to the media room (webhook events) or for this
 * long after their last join ping (the client pings every 60 s).
 */
export const VIEWER_PING_WINDOW_SECONDS = 90;

export interface LiveRecord {
  id: number;
  user_id: number;
  title: string;
  description: string;
  is_public: boolean;
  max_guests: number;
  status: LiveStatus;
  background_image: string | null;
  report_count: number;
  is_suspended: boolean;
  created_at: Timestamp;
  ended_at: Timestamp | null;
  end_reason: LiveEndReason | null;
}

export type NewLive = Pick<LiveRecord, 'user_id' | 'title' | 'description' | 'is_public' | 'max_guests' | 'created_at'>;

/** The media-server room of a live (contract §30: `live-<liveId>`). */
export function liveRoomName(liveId: number): string {
  return `live-${liveId}`;
}

/** The live id of a `live-<id>` room, else null. */
export function liveIdOfRoom(room: string): number | null {
  const m = /^live-(\d{1,15})$/.exec(room);
  return m ? Number(m[1]) : null;
}

/** The user id a media-server identity starts with (`u<userId>-<slug>[-<suffix>]`, contract §31), else null. */
export function userIdOfIdentity(identity: string): number | null {
  const m = /^u(\d{1,15})(?:-|$)/.exec(identity);
  return m ? Number(m[1]) : null;
}

export const GUEST_STATUSES = ['pending', 'approved', 'rejected'] as const;
export type GuestStatus = (typeof GUEST_STATUSES)[number];
export const MAX_GUEST_MESSAGE = 500;

/** A viewer's request to go on stage (publish) in a live, and the host's decision. */
export interface LiveGuestRecord {
  live_id: number;
  user_id: number;
  status: GuestStatus;
  message: string | null;
  created_at: Timestamp;
  decided_at: Timestamp | null;
}

export interface LiveCommentRecord {
  id: number;
  live_id: number;
  user_id: number;
  content: string;
  created_at: Timestamp;
}

/** The reasons the client offers (contract §30); anything else is refused. */
export const LIVE_REPORT_REASONS = ['inappropriate', 'harassment', 'violence', 'spam', 'Community Vote', 'other'] as const;
export const MAX_REPORT_DESCRIPTION = 1_000;
/** Distinct reporters after which a live is suspended, unless configured otherwise. */
export const DEFAULT_LIVE_SUSPEND_THRESHOLD = 5;

export interface LiveReportRecord {
  id: number;
  live_id: number;
  reporter_id: number;
  reason: string;
  description: string | null;
  created_at: Timestamp;
}
