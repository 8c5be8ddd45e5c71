import { token } from '../shared/token.js';
import type { PageRequest } from '../shared/pagination.js';
import type { Timestamp } from '../shared/time.js';
import type { SignalCursor } from './signal-cursor.js';
import type {
  CallParticipantRecord,
  CallRecord,
  CallSignalRecord,
  CallStatus,
  CallTransition,
  NewCall,
  NewSignal,
  ParticipantStatus,
} from './model.js';

/** Calls, who takes part in them, and the signalling they exchange until they end. */
export interface CallRepository {
  /**
   * Takes the call's write lock until the unit of work ends (a no-op outside one): the first step of a
   * unit that decides from the participants (the last one leaving ends a group call).
   */
  lockCall(id: number): Promise<void>;
  /** Stores the call, `ringing`, with its participants. */
  create(call: NewCall, participants: { user_id: number; status: ParticipantStatus; at: Timestamp }[]): Promise<CallRecord>;
  findById(id: number): Promise<CallRecord | null>;
  /** The group's call that is still ringing or active, if any (the newest). */
  openCallOfGroup(groupId: number): Promise<CallRecord | null>;
  /** In user id order. */
  participants(callId: number): Promise<CallParticipantRecord[]>;
  participant(callId: number, userId: number): Promise<CallParticipantRecord | null>;
  /** Sets a participant's status, adding the participant if absent; `at` is the join or leave time. */
  putParticipant(callId: number, userId: number, status: ParticipantStatus, at: Timestamp): Promise<void>;
  /**
   * Moves the call to `to.status` only if its status is one of `from`, in one conditional write:
   * false when it was not (another request moved it first).
   */
  transition(id: number, from: readonly CallStatus[], to: CallTransition): Promise<boolean>;
  /** Replaces the offer and/or answer of a call whose status is one of `when`; false otherwise. */
  setSdp(id: number, when: readonly CallStatus[], sdp: { offer_sdp?: string; answer_sdp?: string | null }): Promise<boolean>;
  /**
   * Stores a signal. Callers take `lockCall` first in the same unit of work, so that one call's signals
   * commit in id order and a poll that saw id N never later finds a smaller one (docs/decisions/0151).
   */
  addSignal(signal: NewSignal): Promise<CallSignalRecord>;
  /**
   * Signals of the call that others sent to `userId` or to everyone, after the cursor (all when null),
   * in id order, `limit` at most. An id cursor returns ids above it; a time cursor (a real time from
   * an older client) returns signals created after that second.
   */
  signalsFor(callId: number, userId: number, after: SignalCursor | null, limit: number): Promise<CallSignalRecord[]>;
  /** Calls `userId` takes part in, newest first. */
  history(userId: number, page: PageRequest): Promise<{ items: CallRecord[]; total: number }>;
  /** Every call still ringing that started at or before `startedBefore` becomes missed; returns how many. */
  missRinging(startedBefore: Timestamp, at: Timestamp): Promise<number>;
}
export const CallRepository = token<CallRepository>('CallRepository');
