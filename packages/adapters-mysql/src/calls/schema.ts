import type { Generated } from 'kysely';

export interface CallsTable {
  id: Generated<number>;
  caller_id: number;
  recipient_id: number | null;
  group_id: number | null;
  call_type: string;
  status: string;
  offer_sdp: string | null;
  answer_sdp: string | null;
  created_at: string;
  answered_at: string | null;
  ended_at: string | null;
}

export interface CallParticipantsTable {
  call_id: number;
  user_id: number;
  status: string;
  joined_at: string | null;
  left_at: string | null;
}

export interface CallSignalsTable {
  id: Generated<number>;
  call_id: number;
  from_user_id: number;
  to_user_id: number | null;
  kind: string;
  payload: string;
  created_at: string;
}

export interface CallsTables {
  calls: CallsTable;
  call_participants: CallParticipantsTable;
  call_signals: CallSignalsTable;
}

declare module '../database.js' {
  /** The calls tables join the database type when this module is loaded. */
  interface Database extends CallsTables {}
}
