import type { Generated } from 'kysely';

export interface ReportsTable {
  id: Generated<number>;
  reporter_id: number;
  post_id: number | null;
  post_type: Generated<string>;
  user_id: number | null;
  target_user_id: number;
  reason: string;
  description: string;
  post_content: string | null;
  status: string;
  /** `post:<id>` or `user:<id>` while pending, null after: unique with the reporter, one pending report per target. */
  open_key: string | null;
  votes_remove: Generated<number>;
  votes_warn: Generated<number>;
  votes_keep: Generated<number>;
  resolution: string | null;
  resolved_by: number | null;
  resolved_at: string | null;
  created_at: string;
}

export interface ReportVotesTable {
  report_id: number;
  voter_id: number;
  vote: string;
  created_at: string;
}

export interface UserWarningsTable {
  id: Generated<number>;
  user_id: number;
  issued_by: number | null;
  report_id: number | null;
  reason: string;
  created_at: string;
}

export interface UserBansTable {
  id: Generated<number>;
  user_id: number;
  banned_by: number | null;
  reason: string;
  is_permanent: number;
  expires_at: string | null;
  created_at: string;
}

export interface ModerationActionsTable {
  id: Generated<number>;
  moderator_id: number;
  action_type: string;
  target_user_id: number;
  report_id: number | null;
  post_id: number | null;
  reason: string;
  by_vote: number;
  created_at: string;
}

export interface ModeratorCandidaciesTable {
  id: Generated<number>;
  user_id: number;
  motivation: string;
  status: string;
  /** The user id while the candidacy is open (candidate or elected), null after: unique, one open candidacy per account. */
  open_user_id: number | null;
  votes_for: Generated<number>;
  votes_against: Generated<number>;
  created_at: string;
  elected_at: string | null;
  ended_at: string | null;
}

export interface ModeratorVotesTable {
  candidacy_id: number;
  voter_id: number;
  vote: string;
  created_at: string;
}

export interface FeatureSuggestionsTable {
  id: Generated<number>;
  user_id: number;
  title: string;
  description: string;
  status: string;
  admin_response: string | null;
  votes_up: Generated<number>;
  votes_down: Generated<number>;
  score: Generated<number>;
  comment_count: Generated<number>;
  created_at: string;
  updated_at: string;
}

export interface FeatureSuggestionVotesTable {
  suggestion_id: number;
  user_id: number;
  vote: number;
  created_at: string;
}

export interface FeatureSuggestionCommentsTable {
  id: Generated<number>;
  suggestion_id: number;
  user_id: number;
  content: string;
  created_at: string;
}

/** One row per suspended account (docs/decisions/0105). */
export interface UserSuspensionsTable {
  user_id: number;
  suspended_by: number | null;
  reason: string;
  created_at: string;
}

export interface ModerationTables {
  reports: ReportsTable;
  user_suspensions: UserSuspensionsTable;
  report_votes: ReportVotesTable;
  user_warnings: UserWarningsTable;
  user_bans: UserBansTable;
  moderation_actions: ModerationActionsTable;
  moderator_candidacies: ModeratorCandidaciesTable;
  moderator_votes: ModeratorVotesTable;
  feature_suggestions: FeatureSuggestionsTable;
  feature_suggestion_votes: FeatureSuggestionVotesTable;
  feature_suggestion_comments: FeatureSuggestionCommentsTable;
}

declare module '../database.js' {
  /** The moderation tables join the database type when this module is loaded. */
  interface Database extends ModerationTables {}
}
