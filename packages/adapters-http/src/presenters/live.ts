import {
  GUEST_STATUSES,
  liveRoomName,
  type GuestView,
  type LiveCommentView,
  type LiveGuestRecord,
  type LiveView,
  type ReportQueueItem,
} from '@plaza/domain/lives';
import { z } from 'zod';
import type { PresenterContext } from './context.js';
import { zAvatar } from './user.js';
import { zCount, zTimestamp, zWireId, wireTime } from './wire.js';

/** A live, in the list (`lives`) and as details (`live`), with the keys contract §30 reads. */
export const LiveItem = z.object({
  id: zWireId,
  live_id: zWireId,
  user_id: zWireId,
  username: z.string().nullable(),
  display_name: z.string().nullable(),
  avatar: zAvatar.nullable(),
  title: z.string(),
  description: z.string(),
  is_public: z.boolean(),
  max_guests: zCount,
  status: z.enum(['active', 'ended']),
  room_name: z.string(),
  background_image: z.string().nullable(),
  current_viewers: zCount,
  report_count: zCount,
  is_suspended: z.boolean(),
  is_mine: z.boolean(),
  created_at: zTimestamp,
  ended_at: zTimestamp.nullable(),
});

export function presentLive(v: LiveView, viewerId: number, p: PresenterContext): z.input<typeof LiveItem> {
  const { live, creator } = v;
  return {
    id: live.id,
    live_id: live.id,
    user_id: live.user_id,
    username: creator?.username ?? null,
    display_name: creator ? creator.display_name?.trim() || creator.username : null,
    avatar: creator ? (creator.avatar ?? 'default.svg') : null,
    title: live.title,
    description: live.description,
    is_public: live.is_public,
    max_guests: live.max_guests,
    status: live.status,
    room_name: liveRoomName(live.id),
    background_image: live.background_image,
    current_viewers: v.current_viewers,
    report_count: live.report_count,
    is_suspended: live.is_suspended,
    is_mine: live.user_id === viewerId,
    created_at: wireTime(p, live.created_at),
    ended_at: p.formatTime(live.ended_at),
  };
}

/** A guest request (`guests`: `user_id`, `username`, contract §30). */
export const GuestItem = z.object({
  user_id: zWireId,
  username: z.string().nullable(),
  avatar: zAvatar.nullable(),
  status: z.enum(GUEST_STATUSES),
  message: z.string().nullable(),
  created_at: zTimestamp,
  decided_at: zTimestamp.nullable(),
});

export function presentGuest(v: GuestView, p: PresenterContext): z.input<typeof GuestItem> {
  return {
    user_id: v.guest.user_id,
    username: v.user?.username ?? null,
    avatar: v.user ? (v.user.avatar ?? 'default.svg') : null,
    status: v.guest.status,
    message: v.guest.message,
    created_at: wireTime(p, v.guest.created_at),
    decided_at: p.formatTime(v.guest.decided_at),
  };
}

/** request-guest answers `status`: `accepted` means "publish now" to the client, anything else waits. */
export function guestRequestStatus(g: LiveGuestRecord): 'accepted' | 'pending' | 'rejected' {
  return g.status === 'approved' ? 'accepted' : g.status;
}

/** A live comment (`comments`: `id`, `user_id`, `username`, `content`, contract §30). */
export const LiveCommentItem = z.object({
  id: zWireId,
  live_id: zWireId,
  user_id: zWireId,
  username: z.string().nullable(),
  avatar: zAvatar.nullable(),
  content: z.string(),
  created_at: zTimestamp,
});

export function presentLiveComment(v: LiveCommentView, p: PresenterContext): z.input<typeof LiveCommentItem> {
  return {
    id: v.comment.id,
    live_id: v.comment.live_id,
    user_id: v.comment.user_id,
    username: v.author?.username ?? null,
    avatar: v.author ? (v.author.avatar ?? 'default.svg') : null,
    content: v.comment.content,
    created_at: wireTime(p, v.comment.created_at),
  };
}

/** The moderation state the client reads at the top level (contract §30). */
export const ModerationStatePayload = z.object({
  moderator_user_ids: z.array(zWireId),
  blocked_user_ids: z.array(zWireId),
  my_is_moderator: z.boolean(),
  my_chat_blocked: z.boolean(),
  is_suspended: z.boolean(),
  report_count: zCount,
});

/** An entry of the moderators' reports queue (contract §30). */
export const LiveReportEntry = z.object({
  id: zWireId,
  live_id: zWireId,
  title: z.string().nullable(),
  creator_id: zWireId.nullable(),
  creator_name: z.string().nullable(),
  reporter_id: zWireId,
  reporter_name: z.string().nullable(),
  reason: z.string(),
  description: z.string().nullable(),
  live_status: z.enum(['active', 'ended']).nullable(),
  report_count: zCount,
  is_suspended: z.boolean(),
  created_at: zTimestamp,
});

export function presentLiveReport(item: ReportQueueItem, p: PresenterContext): z.input<typeof LiveReportEntry> {
  const { report, live, creator, reporter } = item;
  return {
    id: report.id,
    live_id: report.live_id,
    title: live?.title ?? null,
    creator_id: live?.user_id ?? null,
    creator_name: creator?.username ?? null,
    reporter_id: report.reporter_id,
    reporter_name: reporter?.username ?? null,
    reason: report.reason,
    description: report.description,
    live_status: live?.status ?? null,
    report_count: live?.report_count ?? 0,
    is_suspended: live?.is_suspended ?? false,
    created_at: wireTime(p, report.created_at),
  };
}
