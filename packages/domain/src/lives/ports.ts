import { token } from '../shared/token.js';
import type { PageRequest } from '../shared/pagination.js';
import type { Timestamp } from '../shared/time.js';
import type { GuestStatus, LiveCommentRecord, LiveEndReason, LiveGuestRecord, LiveRecord, LiveReportRecord, NewLive } from './model.js';

/** Lives and who is watching them. */
export interface LiveRepository {
  /**
   * Takes the write lock of the creator's account row until the unit of work ends (a no-op outside
   * one): starting a live ends the creator's other lives, and two starts must not both survive.
   */
  lockCreator(userId: number): Promise<void>;
  create(live: NewLive): Promise<LiveRecord>;
  findById(id: number): Promise<LiveRecord | null>;
  findByIds(ids: number[]): Promise<LiveRecord[]>;
  /** Ends every active live of the user; returns their ids. */
  endActiveOf(userId: number, at: Timestamp, reason: LiveEndReason): Promise<number[]>;
  /** Ends the live if it is active, in one conditional write; false when it already was ended. */
  end(id: number, at: Timestamp, reason: LiveEndReason): Promise<boolean>;
  /** Active lives that are public or `viewerId`'s own, newest first. */
  listActive(viewerId: number, page: PageRequest): Promise<{ items: LiveRecord[]; total: number }>;
  setBackground(id: number, background: string | null): Promise<void>;
  /** Records a join ping of a viewer. */
  pingViewer(liveId: number, userId: number, at: Timestamp): Promise<void>;
  /** Records that a viewer connected to or left the live's media room (media-server events). */
  setMediaPresence(liveId: number, userId: number, connected: boolean, at: Timestamp): Promise<void>;
  /** Per live: viewers connected to the room or whose last ping is at or after `pingedSince`, creators excluded. */
  viewerCounts(liveIds: number[], pingedSince: Timestamp): Promise<Map<number, number>>;
  /** Takes the live's write lock until the unit of work ends (a no-op outside one). */
  lockLive(id: number): Promise<void>;
  guest(liveId: number, userId: number): Promise<LiveGuestRecord | null>;
  /** Stores a pending request unless one is pending or approved; a rejected user may ask again. Returns the request as it stands. */
  requestGuest(liveId: number, userId: number, message: string | null, at: Timestamp): Promise<LiveGuestRecord>;
  /** Moves a guest request from one of `from` to `to`; false when there was none in those statuses. */
  decideGuest(liveId: number, userId: number, from: readonly GuestStatus[], to: GuestStatus, at: Timestamp): Promise<boolean>;
  /** The live's guest requests (of one status when given), oldest first. */
  guests(liveId: number, status: GuestStatus | null, page: PageRequest): Promise<{ items: LiveGuestRecord[]; total: number }>;
  countGuests(liveId: number, status: GuestStatus): Promise<number>;
  /** Appoints a live moderator; false when they already were one. */
  addModerator(liveId: number, userId: number, at: Timestamp): Promise<boolean>;
  isModerator(liveId: number, userId: number): Promise<boolean>;
  /** In appointment order. */
  moderatorIds(liveId: number): Promise<number[]>;
  /** Blocks a user from the live's chat; false when they already were. */
  blockChat(liveId: number, userId: number, at: Timestamp): Promise<boolean>;
  isChatBlocked(liveId: number, userId: number): Promise<boolean>;
  /** In blocking order. */
  blockedIds(liveId: number): Promise<number[]>;
  addComment(comment: Omit<LiveCommentRecord, 'id'>): Promise<LiveCommentRecord>;
  findComment(id: number): Promise<LiveCommentRecord | null>;
  /** The `page`-th page counted from the newest comment, returned oldest first (a chat reads downwards). */
  comments(liveId: number, page: PageRequest): Promise<{ items: LiveCommentRecord[]; total: number }>;
  deleteComment(id: number): Promise<boolean>;
  /**
   * Records one report per reporter and live. A new report adds one to the live's `report_count` and
   * suspends the live once the count reaches `suspendAt`, in one conditional write; a repeated report
   * changes nothing (`added` false). Answers the live's count and suspension as they stand.
   */
  report(report: Omit<LiveReportRecord, 'id'>, suspendAt: number): Promise<{ added: boolean; report_count: number; is_suspended: boolean }>;
  /** Every live report, newest first: the moderators' queue. */
  reports(page: PageRequest): Promise<{ items: LiveReportRecord[]; total: number }>;
}
export const LiveRepository = token<LiveRepository>('LiveRepository');

export interface MediaServerSettings {
  /** The wss:// URL clients connect to. */
  url: string;
}

export interface MediaTokenGrant {
  identity: string;
  name: string;
  room: string;
  canPublish: boolean;
  canPublishData: boolean;
  canSubscribe: boolean;
  ttlSeconds: number;
}

/** A media-server event, as its webhook reports it. */
export interface MediaEvent {
  event: string;
  room: string | null;
  identity: string | null;
}

/**
 * The live media server (LiveKit-compatible): its public settings, access tokens it accepts, and the
 * signed events it posts back. Settings may change at run time (the admin panel rewrites them).
 */
export interface MediaServer {
  /** null when no media server is configured. */
  settings(): Promise<MediaServerSettings | null>;
  /** Signs an access token; only called when `settings()` is not null. */
  issueToken(grant: MediaTokenGrant): Promise<string>;
  /** Checks the signature of a webhook call over its exact body; throws Unauthenticated when it fails. */
  verifyEvent(rawBody: string, authorization: string | undefined): Promise<MediaEvent>;
}
export const MediaServer = token<MediaServer>('MediaServer');
