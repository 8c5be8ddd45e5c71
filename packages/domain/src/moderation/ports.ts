import { token } from '../shared/token.js';
import type { PageRequest } from '../shared/pagination.js';
import type { Timestamp } from '../shared/time.js';
import type {
  BanRecord,
  CandidacyRecord,
  ModerationActionRecord,
  NewModerationAction,
  NewReport,
  ReportDecision,
  ReportRecord,
  SuggestionCommentRecord,
  SuggestionRecord,
  SuspensionRecord,
  WarningRecord,
} from './model.js';
import type { Actor } from '../shared/actor.js';
import type { CandidateVote, ReportedPostType, ReportOutcome, SuggestionFilter, SuggestionStatus, SuggestionVote } from './rules.js';

export interface Paged<T> {
  items: T[];
  total: number;
}

/**
 * A kind of post reports.php accepts, served by the context that owns it: wall posts (content),
 * group posts (groups), page posts (pages). Multi-bound: each module adds its own.
 */
export interface ReportableContent {
  readonly type: ReportedPostType;
  /** The post as the reporter sees it: its author, text and media (stored upload paths); NotFound when it is missing or hidden from them. */
  find(actor: Actor, postId: number): Promise<{ author_id: number; content: string; media: string[] }>;
  /** Removes it on the moderators' decision; NotFound when it is gone already. */
  remove(moderator: Actor, postId: number): Promise<void>;
}
export const ReportableContents = token<ReportableContent>('moderation.ReportableContents');

/** What a report is about: a post, or an account. */
export type ReportTarget = { post_id: number; post_type: ReportedPostType } | { user_id: number };

/**
 * Reports and the moderators' votes on them. A report is `pending` until it is resolved once
 * (or cancelled by its reporter); each reporter has at most one pending report per target.
 */
export interface ReportRepository {
  /** Takes the report's write lock until the unit of work ends (a no-op outside one). */
  lock(id: number): Promise<void>;
  /** Stores a pending report; null when the reporter already has a pending report on this target. */
  create(report: NewReport): Promise<ReportRecord | null>;
  findById(id: number): Promise<ReportRecord | null>;
  /** The reporter's pending report on this target. */
  findPending(reporterId: number, target: ReportTarget): Promise<ReportRecord | null>;
  /** Reports of this status (all of them, or one reporter's), newest first. */
  list(status: 'pending' | 'resolved', reporterId: number | null, page: PageRequest): Promise<Paged<ReportRecord>>;
  /** Reports whose decision falls on the account (about it, or about its posts), of every status, newest first. */
  aboutUser(userId: number, page: PageRequest): Promise<Paged<ReportRecord>>;
  /**
   * Sets (or with null withdraws) the voter's vote and moves the report's counters with it; returns
   * the vote the voter had before. Call under the report's lock: it reads, then writes.
   */
  setVote(reportId: number, voterId: number, vote: ReportOutcome | null, at: Timestamp): Promise<ReportOutcome | null>;
  /** The voter's votes on these reports. */
  votesOf(voterId: number, reportIds: number[]): Promise<Map<number, ReportOutcome>>;
  /** Resolves the report if it is still pending: false when it was not, so a report resolves once. */
  resolve(id: number, decision: ReportDecision): Promise<boolean>;
  /** Resolves every other pending report on the post with the same decision; returns how many. */
  resolvePendingOnPost(target: { post_id: number; post_type: ReportedPostType }, decision: ReportDecision): Promise<number>;
  /** Cancels the report if it is still pending; false when it was not. */
  cancel(id: number, at: Timestamp): Promise<boolean>;
}
export const ReportRepository = token<ReportRepository>('ReportRepository');

/** Warnings and bans. */
export interface SanctionRepository {
  /**
   * Takes, until the unit of work ends, the lock that serializes the sanctions of one account: call
   * it as the unit's first step before counting what the account already has.
   */
  lockUser(userId: number): Promise<void>;
  addWarning(warning: Omit<WarningRecord, 'id'>): Promise<WarningRecord>;
  /** Warnings of the account created strictly after `after`. */
  countWarningsAfter(userId: number, after: Timestamp): Promise<number>;
  addBan(ban: Omit<BanRecord, 'id'>): Promise<BanRecord>;
  /** Every ban the account ever had, newest first. */
  bansOf(userId: number): Promise<BanRecord[]>;
  /** The newest ban of the account still in force at `now`. */
  activeBan(userId: number, now: Timestamp): Promise<BanRecord | null>;
  /** Warnings newest first: everyone's, or one account's. */
  warnings(userId: number | null, page: PageRequest): Promise<Paged<WarningRecord>>;
  /** Bans newest first. */
  bans(page: PageRequest): Promise<Paged<BanRecord>>;
}
export const SanctionRepository = token<SanctionRepository>('SanctionRepository');

/**
 * Suspensions of accounts (docs/decisions/0105): at most one per account, in force until lifted.
 * Callers decide under the account's lock (`SanctionRepository.lockUser`); `suspend` and `lift` are
 * also conditional on their own, so that a change happens once.
 */
export interface SuspensionRepository {
  /** Stores the suspension; false when the account already is suspended. */
  suspend(suspension: SuspensionRecord): Promise<boolean>;
  /** Removes the account's suspension; the one removed, or null when there was none. */
  lift(userId: number): Promise<SuspensionRecord | null>;
  find(userId: number): Promise<SuspensionRecord | null>;
  /** Which of these accounts are suspended. */
  suspendedAmong(userIds: number[]): Promise<Set<number>>;
}
export const SuspensionRepository = token<SuspensionRepository>('SuspensionRepository');

/** The moderators' action log. */
export interface ModerationLog {
  record(action: NewModerationAction): Promise<ModerationActionRecord>;
  /** Newest first. */
  list(page: PageRequest): Promise<Paged<ModerationActionRecord>>;
}
export const ModerationLog = token<ModerationLog>('ModerationLog');

/** Candidacies to the moderators' role and the votes on them. */
export interface CandidacyRepository {
  /**
   * Takes, until the unit of work ends, the lock that serializes decisions about one account's
   * candidacy (votes, withdrawal): call it as the unit's first step.
   */
  lockCandidate(userId: number): Promise<void>;
  /** Opens a candidacy; null when the account already has an open one (candidate or elected). */
  create(userId: number, motivation: string, at: Timestamp): Promise<CandidacyRecord | null>;
  /** The account's open candidacy (candidate or elected). */
  findOpen(userId: number): Promise<CandidacyRecord | null>;
  /** The open candidacies of these accounts. */
  findOpenOf(userIds: number[]): Promise<CandidacyRecord[]>;
  /** Sets the voter's vote, moving the counters with it; returns the vote before. Call under the candidate's lock. */
  setVote(candidacyId: number, voterId: number, vote: CandidateVote, at: Timestamp): Promise<CandidateVote | null>;
  votesOf(voterId: number, candidacyIds: number[]): Promise<Map<number, CandidateVote>>;
  /** candidate → elected; false when the candidacy was not a candidate's any more. */
  elect(id: number, at: Timestamp): Promise<boolean>;
  /** Ends an open candidacy; false when it was not open any more. */
  close(id: number, status: 'withdrawn' | 'rejected' | 'resigned' | 'revoked', at: Timestamp): Promise<boolean>;
  /** Open candidacies not yet elected, newest first. */
  candidates(page: PageRequest): Promise<Paged<CandidacyRecord>>;
}
export const CandidacyRepository = token<CandidacyRepository>('CandidacyRepository');

/**
 * The accounts' moderator role, as `isModerator` (accounts/user.ts) reads it: the `is_moderator`
 * flag that elections set and revocations clear, or the admin flag.
 */
export interface ModeratorRoster {
  setModerator(userId: number, on: boolean): Promise<void>;
  /** Accounts that are moderators (admins included), by id. */
  moderatorIds(page: PageRequest): Promise<{ ids: number[]; total: number }>;
}
export const ModeratorRoster = token<ModeratorRoster>('ModeratorRoster');

export interface FeatureSuggestionRepository {
  /** Takes the suggestion's write lock until the unit of work ends (a no-op outside one). */
  lock(id: number): Promise<void>;
  create(s: { user_id: number; title: string; description: string; created_at: Timestamp }): Promise<SuggestionRecord>;
  findById(id: number): Promise<SuggestionRecord | null>;
  /** popular: score then newest; recent (and no filter): newest; planned: planned and in progress; done. */
  list(filter: SuggestionFilter | null, page: PageRequest): Promise<Paged<SuggestionRecord>>;
  /** How many suggestions have each status. */
  countByStatus(): Promise<Record<SuggestionStatus, number>>;
  /** Sets (or with null withdraws) the user's vote, moving the counters and score; returns the vote before. Call under the lock. */
  setVote(id: number, userId: number, vote: SuggestionVote | null, at: Timestamp): Promise<SuggestionVote | null>;
  votesOf(userId: number, ids: number[]): Promise<Map<number, SuggestionVote>>;
  /** Stores the comment and counts it on the suggestion. */
  addComment(c: Omit<SuggestionCommentRecord, 'id'>): Promise<SuggestionCommentRecord>;
  /** Oldest first. */
  comments(suggestionId: number, page: PageRequest): Promise<Paged<SuggestionCommentRecord>>;
  setStatus(id: number, status: SuggestionStatus, adminResponse: string | null, at: Timestamp): Promise<void>;
  /** Removes the suggestion with its votes and comments; false when there was none. */
  delete(id: number): Promise<boolean>;
}
export const FeatureSuggestionRepository = token<FeatureSuggestionRepository>('FeatureSuggestionRepository');
