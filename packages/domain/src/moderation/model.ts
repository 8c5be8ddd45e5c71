import type { Timestamp } from '../shared/time.js';
import type {
  CandidacyStatus,
  CandidateVote,
  ModerationActionType,
  ReportOutcome,
  ReportStatus,
  ReportedPostType,
  SuggestionStatus,
  SuggestionVote,
} from './rules.js';

/** A report on a post or on an account. */
export interface ReportRecord {
  id: number;
  reporter_id: number;
  /** The reported post, for a report on a post. */
  post_id: number | null;
  /** Which kind of post `post_id` names (`post` also for a report on an account). */
  post_type: ReportedPostType;
  /** The reported account, for a report on an account. */
  user_id: number | null;
  /** The account the decision falls on: the reported account, or the author of the reported post. */
  target_user_id: number;
  reason: string;
  description: string;
  /** The post's text when it was reported: what the moderators judge, even if it is edited since. */
  post_content: string | null;
  status: ReportStatus;
  votes_remove: number;
  votes_warn: number;
  votes_keep: number;
  resolution: ReportOutcome | null;
  resolved_by: number | null;
  resolved_at: Timestamp | null;
  created_at: Timestamp;
}

export type NewReport = Pick<
  ReportRecord,
  'reporter_id' | 'post_id' | 'post_type' | 'user_id' | 'target_user_id' | 'reason' | 'description' | 'post_content' | 'created_at'
>;

export function voteCount(r: Pick<ReportRecord, 'votes_remove' | 'votes_warn' | 'votes_keep'>): number {
  return r.votes_remove + r.votes_warn + r.votes_keep;
}

export function votesFor(r: ReportRecord, outcome: ReportOutcome): number {
  return outcome === 'remove' ? r.votes_remove : outcome === 'warn' ? r.votes_warn : r.votes_keep;
}

export interface ReportDecision {
  resolution: ReportOutcome;
  resolved_by: number;
  resolved_at: Timestamp;
}

export interface WarningRecord {
  id: number;
  user_id: number;
  /** The moderator who issued it (for a decision by vote, the one whose vote decided). */
  issued_by: number | null;
  report_id: number | null;
  reason: string;
  created_at: Timestamp;
}

export interface BanRecord {
  id: number;
  user_id: number;
  banned_by: number | null;
  reason: string;
  is_permanent: boolean;
  /** Null for a permanent ban. */
  expires_at: Timestamp | null;
  created_at: Timestamp;
}

/** A temporary ban lapses by itself: it is active until its expiry, no job lifts it. */
export function isBanActive(ban: BanRecord, now: Timestamp): boolean {
  return ban.is_permanent || (ban.expires_at !== null && ban.expires_at > now);
}

/**
 * An account suspended from the admin panel (docs/decisions/0105): refused everywhere but login and
 * its own sanctions, like a ban, until a moderator lifts it; it has no expiry.
 */
export interface SuspensionRecord {
  user_id: number;
  suspended_by: number | null;
  reason: string;
  created_at: Timestamp;
}

/** One line of the moderators' action log. */
export interface ModerationActionRecord {
  id: number;
  moderator_id: number;
  action_type: ModerationActionType;
  target_user_id: number;
  report_id: number | null;
  post_id: number | null;
  reason: string;
  /** Decided by the moderators' votes on a report, rather than by one moderator's direct action. */
  by_vote: boolean;
  created_at: Timestamp;
}

export type NewModerationAction = Omit<ModerationActionRecord, 'id'>;

export interface CandidacyRecord {
  id: number;
  user_id: number;
  motivation: string;
  status: CandidacyStatus;
  votes_for: number;
  votes_against: number;
  created_at: Timestamp;
  elected_at: Timestamp | null;
  ended_at: Timestamp | null;
}

export type { CandidateVote };

export interface SuggestionRecord {
  id: number;
  user_id: number;
  title: string;
  description: string;
  status: SuggestionStatus;
  admin_response: string | null;
  votes_up: number;
  votes_down: number;
  /** votes_up − votes_down, stored so that the popular list is read in index order. */
  score: number;
  comment_count: number;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface SuggestionCommentRecord {
  id: number;
  suggestion_id: number;
  user_id: number;
  content: string;
  created_at: Timestamp;
}

export type { SuggestionVote };
