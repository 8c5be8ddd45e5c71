import {
  isBanActive,
  MODERATION_ACTION_TYPES,
  REPORTED_POST_TYPES,
  voteCount,
  type ActionView,
  type BanRecord,
  type BanView,
  type CandidateView,
  type ReportView,
  type SuspensionRecord,
  type WarningRecord,
  type WarningView,
} from '@plaza/domain/moderation';
import { toTimestamp } from '@plaza/domain';
import { z } from 'zod';
import type { PresenterContext } from './context.js';
import { zAvatar } from './user.js';
import { avatarOf, nameOf, zCount, zTimestamp, zWireId, wireTime } from './wire.js';

/** reports.php item (contract §35.5), with the vote counts by outcome and the resolution beside it. */
export const ReportItem = z.object({
  id: zWireId,
  reason: z.string(),
  description: z.string(),
  /** The reported post, or null for a report on an account. */
  post_id: zWireId.nullable(),
  /** Which kind of post `post_id` is: a wall post, a group's or a page's. */
  post_type: z.enum(REPORTED_POST_TYPES),
  /** The reported account, or null for a report on a post. */
  user_id: zWireId.nullable(),
  /** The post's text as it was reported. */
  post_content: z.string().nullable(),
  reported_user_id: zWireId,
  reported_username: z.string(),
  reporter_id: zWireId,
  reporter_username: z.string(),
  vote_count: zCount,
  votes: z.object({ remove: zCount, warn: zCount, keep: zCount }),
  my_vote: z.enum(['remove', 'warn', 'keep']).nullable(),
  status: z.enum(['pending', 'resolved', 'cancelled']),
  resolution: z.enum(['remove', 'warn', 'keep']).nullable(),
  resolved_at: zTimestamp.nullable(),
  created_at: zTimestamp,
});

export function presentReport(v: ReportView, p: PresenterContext): z.input<typeof ReportItem> {
  const r = v.report;
  return {
    id: r.id,
    reason: r.reason,
    description: r.description,
    post_id: r.post_id,
    post_type: r.post_type,
    user_id: r.user_id,
    post_content: r.post_content,
    reported_user_id: r.target_user_id,
    reported_username: nameOf(v.reported),
    reporter_id: r.reporter_id,
    reporter_username: nameOf(v.reporter),
    vote_count: voteCount(r),
    votes: { remove: r.votes_remove, warn: r.votes_warn, keep: r.votes_keep },
    my_vote: v.my_vote,
    status: r.status,
    resolution: r.resolution,
    resolved_at: p.formatTime(r.resolved_at),
    created_at: wireTime(p, r.created_at),
  };
}

/**
 * moderators.php candidate and moderator item (contract §35.5 ModeratorCandidate). `status` says how
 * the account holds the role: a candidate, elected (with its votes), or appointed (an admin, or set by
 * the main application), which has no motivation or votes.
 */
export const CandidateItem = z.object({
  user_id: zWireId,
  username: z.string(),
  avatar: zAvatar,
  motivation: z.string(),
  votes_for: zCount,
  votes_against: zCount,
  my_vote: z.enum(['for', 'against']).nullable(),
  status: z.enum(['candidate', 'elected', 'appointed']),
  elected_at: zTimestamp.nullable(),
  created_at: zTimestamp,
});

export function presentCandidate(v: CandidateView, p: PresenterContext): z.input<typeof CandidateItem> {
  const c = v.candidacy;
  return {
    user_id: v.user.id,
    username: v.user.username,
    avatar: avatarOf(v.user),
    motivation: c?.motivation ?? '',
    votes_for: c?.votes_for ?? 0,
    votes_against: c?.votes_against ?? 0,
    my_vote: v.my_vote,
    status: c?.status === 'candidate' ? 'candidate' : c?.status === 'elected' ? 'elected' : 'appointed',
    elected_at: p.formatTime(c?.elected_at ?? null),
    created_at: wireTime(p, c?.created_at ?? v.user.created_at),
  };
}

/**
 * moderators.php?type=actions item (contract §26): `warning`, or `delete_post` (the post removed and
 * its author warned), and the log's other lines (the app shows every type but `warning` as a removed
 * post: `reason` says what happened).
 */
export const ActionItem = z.object({
  id: zWireId,
  action_type: z.enum(MODERATION_ACTION_TYPES),
  moderator_id: zWireId,
  moderator_username: z.string(),
  moderator_avatar: zAvatar,
  target_user_id: zWireId,
  target_username: z.string(),
  reason: z.string(),
  report_id: zWireId.nullable(),
  post_id: zWireId.nullable(),
  /** Decided by the moderators' votes on the report (the moderator is the one whose vote decided). */
  by_vote: z.boolean(),
  created_at: zTimestamp,
});

export function presentAction(v: ActionView, p: PresenterContext): z.input<typeof ActionItem> {
  const a = v.action;
  return {
    id: a.id,
    action_type: a.action_type,
    moderator_id: a.moderator_id,
    moderator_username: nameOf(v.moderator),
    moderator_avatar: avatarOf(v.moderator),
    target_user_id: a.target_user_id,
    target_username: nameOf(v.target),
    reason: a.reason,
    report_id: a.report_id,
    post_id: a.post_id,
    by_vote: a.by_vote,
    created_at: wireTime(p, a.created_at),
  };
}

/** sanctions.php?type=all warning (contract §27). */
export const WarningItem = z.object({
  id: zWireId,
  user_id: zWireId,
  target_username: z.string(),
  target_avatar: zAvatar,
  issued_by_username: z.string().nullable(),
  reason: z.string(),
  created_at: zTimestamp,
});

export function presentWarning(v: WarningView, p: PresenterContext): z.input<typeof WarningItem> {
  return {
    id: v.warning.id,
    user_id: v.warning.user_id,
    target_username: nameOf(v.target),
    target_avatar: avatarOf(v.target),
    issued_by_username: v.issued_by?.username ?? null,
    reason: v.warning.reason,
    created_at: wireTime(p, v.warning.created_at),
  };
}

/** sanctions.php?type=all ban (contract §27); `expires_at` is null for a permanent ban. */
export const BanItem = z.object({
  id: zWireId,
  user_id: zWireId,
  target_username: z.string(),
  target_avatar: zAvatar,
  banned_by_username: z.string().nullable(),
  reason: z.string(),
  is_permanent: z.boolean(),
  expires_at: zTimestamp.nullable(),
  is_active: z.boolean(),
  created_at: zTimestamp,
});

export function presentBan(v: BanView, p: PresenterContext): z.input<typeof BanItem> {
  return {
    id: v.ban.id,
    user_id: v.ban.user_id,
    target_username: nameOf(v.target),
    target_avatar: avatarOf(v.target),
    banned_by_username: v.banned_by?.username ?? null,
    reason: v.ban.reason,
    is_permanent: v.ban.is_permanent,
    expires_at: p.formatTime(v.ban.expires_at),
    is_active: isBanActive(v.ban, toTimestamp(p.now())),
    created_at: wireTime(p, v.ban.created_at),
  };
}

/** The `ban` object of sanctions.php?type=mine (contract §27): what the app's ban screen shows. */
export const MyBan = z.object({
  reason: z.string(),
  is_permanent: z.boolean(),
  expires_at: zTimestamp.nullable(),
  created_at: zTimestamp,
});

export function presentMyBan(ban: BanRecord, p: PresenterContext): z.input<typeof MyBan> {
  return {
    reason: ban.reason,
    is_permanent: ban.is_permanent,
    expires_at: p.formatTime(ban.expires_at),
    created_at: wireTime(p, ban.created_at),
  };
}

/**
 * A suspension as type=mine's `ban` (docs/decisions/0105): the app's only screen for an account it may
 * not use is the ban screen, so a suspended account reads there why, with no end date (it lasts until
 * a moderator lifts it).
 */
export function presentSuspensionAsBan(s: SuspensionRecord, p: PresenterContext): z.input<typeof MyBan> {
  return {
    reason: `Suspended by the moderators: ${s.reason}`,
    is_permanent: true,
    expires_at: null,
    created_at: wireTime(p, s.created_at),
  };
}

/** One of one's own warnings. */
export const MyWarning = z.object({ id: zWireId, reason: z.string(), created_at: zTimestamp });

export function presentMyWarning(w: WarningRecord, p: PresenterContext): z.input<typeof MyWarning> {
  return { id: w.id, reason: w.reason, created_at: wireTime(p, w.created_at) };
}
