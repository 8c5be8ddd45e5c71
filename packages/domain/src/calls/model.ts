import type { Timestamp } from '../shared/time.js';

export const CALL_TYPES = ['audio', 'video'] as const;
export type CallType = (typeof CALL_TYPES)[number];

/** `ringing` until answered (one-to-one) or joined by someone else (group); the other three are final. */
export const CALL_STATUSES = ['ringing', 'active', 'ended', 'rejected', 'missed'] as const;
export type CallStatus = (typeof CALL_STATUSES)[number];
export const OPEN_STATUSES: readonly CallStatus[] = ['ringing', 'active'];

export const PARTICIPANT_STATUSES = ['invited', 'joined', 'left', 'rejected'] as const;
export type ParticipantStatus = (typeof PARTICIPANT_STATUSES)[number];

/** A call ringing this long without an answer becomes missed (the Android ring screen gives up at 45 s too). */
export const RING_TIMEOUT_SECONDS = 45;

/** The largest session description or candidate we store; real SDPs are a few kilobytes. */
export const MAX_SDP_LENGTH = 100_000;
export const MAX_CANDIDATE_LENGTH = 4_000;
/** A poll never returns more signals than this (a call exchanges a few dozen candidates). */
export const MAX_SIGNALS_PER_POLL = 500;

export interface CallRecord {
  id: number;
  caller_id: number;
  /** The callee of a one-to-one call; null for a group call. */
  recipient_id: number | null;
  /** The messaging group of a group call; null for a one-to-one call. */
  group_id: number | null;
  call_type: CallType;
  status: CallStatus;
  offer_sdp: string | null;
  answer_sdp: string | null;
  created_at: Timestamp;
  answered_at: Timestamp | null;
  ended_at: Timestamp | null;
}

export type NewCall = Omit<CallRecord, 'id' | 'status' | 'answer_sdp' | 'answered_at' | 'ended_at'>;

export interface CallParticipantRecord {
  call_id: number;
  user_id: number;
  status: ParticipantStatus;
  joined_at: Timestamp | null;
  left_at: Timestamp | null;
}

/** What one participant sends another through the server: ICE candidates, and mesh offers and answers. */
export type SignalKind = 'ice' | 'offer' | 'answer';

export interface CallSignalRecord {
  id: number;
  call_id: number;
  from_user_id: number;
  /** null: for every other participant. */
  to_user_id: number | null;
  kind: SignalKind;
  /** A candidate as JSON text (`{"candidate", "sdpMid", "sdpMLineIndex"}`), or an SDP. */
  payload: string;
  created_at: Timestamp;
}

export type NewSignal = Omit<CallSignalRecord, 'id'>;

/** The change a status transition writes besides the status. */
export interface CallTransition {
  status: CallStatus;
  answer_sdp?: string;
  answered_at?: Timestamp;
  ended_at?: Timestamp;
}
