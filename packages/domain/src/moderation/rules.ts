/**
 * The rules of community moderation (docs/decisions/0012-community-moderation.md). The spec leaves them
 * open; the thresholds are the instance's to choose, from its configuration (`MODERATION_*`).
 */
export interface ModerationRules {
  /** Moderators' votes for one outcome (remove, warn, keep) that resolve a report. */
  reportVotes: number;
  /** `for` votes that elect a candidate, provided they outnumber the `against` votes. */
  electionVotes: number;
  /** `against` votes that revoke a moderator (or turn a candidacy down), provided they outnumber the `for` votes. */
  recallVotes: number;
  /** Accounts younger than this many days do not vote in elections: new accounts cannot pack one. */
  voterMinAccountDays: number;
  /** Warnings within the window that ban an account. */
  warningsBeforeBan: number;
  warningWindowDays: number;
  /** Length of a temporary ban. */
  banDays: number;
  /** Temporary bans an account may have had; the ban after them is permanent. */
  permanentAfterBans: number;
}

export const DEFAULT_MODERATION_RULES: ModerationRules = {
  reportVotes: 3,
  electionVotes: 5,
  recallVotes: 5,
  voterMinAccountDays: 7,
  warningsBeforeBan: 3,
  warningWindowDays: 90,
  banDays: 7,
  permanentAfterBans: 2,
};

/** The reasons the app offers (contract §25). */
export const REPORT_REASONS = ['spam', 'harassment', 'hate_speech', 'misinformation', 'violence', 'other'] as const;
export type ReportReason = (typeof REPORT_REASONS)[number];

/**
 * The kinds of post a report may name (`post_type`, default `post`): wall posts, and the posts of
 * community groups and pages, each from the context that owns it (`ReportableContent`).
 */
export const REPORTED_POST_TYPES = ['post', 'group', 'page'] as const;
export type ReportedPostType = (typeof REPORTED_POST_TYPES)[number];

/** What moderators vote on a report, which is also how it ends. */
export const REPORT_OUTCOMES = ['remove', 'warn', 'keep'] as const;
export type ReportOutcome = (typeof REPORT_OUTCOMES)[number];

export type ReportStatus = 'pending' | 'resolved' | 'cancelled';

/** A moderator's direct decision (contract §25): remove the post and warn its author, or warn. */
export const MODERATOR_ACTIONS = ['delete_post', 'warn_user'] as const;
export type ModeratorAction = (typeof MODERATOR_ACTIONS)[number];

/**
 * What the action log records: a warning, a post removed (with its author warned), and the instance
 * moderation of the admin panel (docs/decisions/0105): an account suspended or unsuspended, deleted,
 * or its two-factor reset, each with a `reason` that says so (the app shows every type but `warning`
 * as a removed post, with its reason).
 */
export const MODERATION_ACTION_TYPES = [
  'warning',
  'delete_post',
  'suspend',
  'unsuspend',
  'delete_account',
  'reset_two_factor',
  // Registrations decided and invitations managed in the admin panel (docs/decisions/0104).
  'approve_signup',
  'reject_signup',
  'create_invite',
  'revoke_invite',
  // Domain blocks and the delivery queue in the admin panel (docs/decisions/0106).
  'block_domain',
  'unblock_domain',
  'retry_delivery',
  'discard_delivery',
] as const;
export type ModerationActionType = (typeof MODERATION_ACTION_TYPES)[number];

export const CANDIDATE_VOTES = ['for', 'against'] as const;
export type CandidateVote = (typeof CANDIDATE_VOTES)[number];

/**
 * A candidacy is open while `candidate` or `elected` (one open candidacy per account); it ends
 * `withdrawn` (by the candidate), `rejected` (by votes), `resigned` (by the moderator) or `revoked` (by votes).
 */
export type CandidacyStatus = 'candidate' | 'elected' | 'withdrawn' | 'rejected' | 'resigned' | 'revoked';

export const SUGGESTION_STATUSES = ['pending', 'planned', 'in_progress', 'done', 'rejected'] as const;
export type SuggestionStatus = (typeof SUGGESTION_STATUSES)[number];

/** popular: by score; recent: newest; planned: planned and in progress; done. */
export const SUGGESTION_FILTERS = ['popular', 'recent', 'planned', 'done'] as const;
export type SuggestionFilter = (typeof SUGGESTION_FILTERS)[number];

export type SuggestionVote = 1 | -1;

export const REPORT_DESCRIPTION_MAX = 1000;
export const ACTION_REASON_MAX = 500;
/** A suspension's reason, shown to moderators and in the log. */
export const SUSPENSION_REASON_MAX = 500;
export const MOTIVATION_MAX = 2000;
export const SUGGESTION_TITLE_MIN = 5;
export const SUGGESTION_TITLE_MAX = 200;
export const SUGGESTION_DESCRIPTION_MIN = 20;
export const SUGGESTION_DESCRIPTION_MAX = 5000;
export const SUGGESTION_COMMENT_MIN = 3;
export const SUGGESTION_COMMENT_MAX = 2000;
export const ADMIN_RESPONSE_MAX = 2000;
