import {
  CALL_STATUSES,
  CALL_TYPES,
  PARTICIPANT_STATUSES,
  type CallRecord,
  type CallSignalRecord,
  type CallView,
  type HistoryItem,
  type ParticipantView,
} from '@plaza/domain/calls';
import type { UserRecord } from '@plaza/domain/accounts';
import { fromTimestamp } from '@plaza/domain';
import { z } from 'zod';
import type { PresenterContext } from './context.js';
import { zAvatar } from './user.js';
import { zCount, zTimestamp, zWireId, wireTime } from './wire.js';

/** `call_id` is a JSON string wherever the clients read it (contract §32.1, §36.7); `id` is the number. */
const zCallId = z.string().regex(/^\d+$/);

const name = (u: UserRecord | null) => (u ? u.display_name?.trim() || u.username : null);
const avatar = (u: UserRecord | null) => (u ? (u.avatar ?? 'default.svg') : null);

/** A call as poll and the actions answer it (`data.call`). */
export const CallItem = z.object({
  id: zWireId,
  call_id: zCallId,
  status: z.enum(CALL_STATUSES),
  call_type: z.enum(CALL_TYPES),
  is_group_call: z.boolean(),
  group_id: zWireId.nullable(),
  caller_id: zWireId,
  caller_username: z.string().nullable(),
  caller_name: z.string().nullable(),
  caller_avatar: zAvatar.nullable(),
  recipient_id: zWireId.nullable(),
  recipient_username: z.string().nullable(),
  offer_sdp: z.string().nullable(),
  answer_sdp: z.string().nullable(),
  created_at: zTimestamp,
  answered_at: zTimestamp.nullable(),
  ended_at: zTimestamp.nullable(),
});

export function presentCall(view: Pick<CallView, 'call' | 'caller' | 'recipient'>, p: PresenterContext): z.input<typeof CallItem> {
  const { call, caller, recipient } = view;
  return {
    id: call.id,
    call_id: String(call.id),
    status: call.status,
    call_type: call.call_type,
    is_group_call: call.group_id !== null,
    group_id: call.group_id,
    caller_id: call.caller_id,
    caller_username: caller?.username ?? null,
    caller_name: name(caller),
    caller_avatar: avatar(caller),
    recipient_id: call.recipient_id,
    recipient_username: recipient?.username ?? null,
    offer_sdp: call.offer_sdp,
    answer_sdp: call.answer_sdp,
    created_at: wireTime(p, call.created_at),
    answered_at: p.formatTime(call.answered_at),
    ended_at: p.formatTime(call.ended_at),
  };
}

/** A participant of `data.participants` (contract §32.2: `user_id`, `status`, `username`, `avatar`). */
export const ParticipantItem = z.object({
  user_id: zWireId,
  status: z.enum(PARTICIPANT_STATUSES),
  username: z.string().nullable(),
  avatar: zAvatar.nullable(),
  joined_at: zTimestamp.nullable(),
  left_at: zTimestamp.nullable(),
});

export function presentParticipant(v: ParticipantView, p: PresenterContext): z.input<typeof ParticipantItem> {
  return {
    user_id: v.participant.user_id,
    status: v.participant.status,
    username: v.user?.username ?? null,
    avatar: avatar(v.user),
    joined_at: p.formatTime(v.participant.joined_at),
    left_at: p.formatTime(v.participant.left_at),
  };
}

/** An ICE candidate: `candidate` is the JSON text of `{candidate, sdpMid, sdpMLineIndex}` (contract §32.1). */
export const IceCandidateItem = z.object({ id: zWireId, user_id: zWireId, candidate: z.string(), created_at: zTimestamp });
export const PeerOfferItem = z.object({ id: zWireId, from_user_id: zWireId, offer_sdp: z.string(), created_at: zTimestamp });
export const PeerAnswerItem = z.object({ id: zWireId, from_user_id: zWireId, answer_sdp: z.string(), created_at: zTimestamp });

export const presentIceCandidate = (s: CallSignalRecord, p: PresenterContext): z.input<typeof IceCandidateItem> => ({
  id: s.id,
  user_id: s.from_user_id,
  candidate: s.payload,
  created_at: wireTime(p, s.created_at),
});
export const presentPeerOffer = (s: CallSignalRecord, p: PresenterContext): z.input<typeof PeerOfferItem> => ({
  id: s.id,
  from_user_id: s.from_user_id,
  offer_sdp: s.payload,
  created_at: wireTime(p, s.created_at),
});
export const presentPeerAnswer = (s: CallSignalRecord, p: PresenterContext): z.input<typeof PeerAnswerItem> => ({
  id: s.id,
  from_user_id: s.from_user_id,
  answer_sdp: s.payload,
  created_at: wireTime(p, s.created_at),
});

/** A history entry (contract §32.1): read by the iOS ring fallback, so a ringing incoming call carries its offer. */
export const HistoryEntry = z.object({
  id: zWireId,
  call_id: zCallId,
  direction: z.enum(['incoming', 'outgoing']),
  status: z.enum(CALL_STATUSES),
  call_type: z.enum(CALL_TYPES),
  is_group_call: z.boolean(),
  group_id: zWireId.nullable(),
  caller_id: zWireId,
  caller_username: z.string().nullable(),
  caller_avatar: zAvatar.nullable(),
  recipient_id: zWireId.nullable(),
  recipient_username: z.string().nullable(),
  recipient_avatar: zAvatar.nullable(),
  offer_sdp: z.string().nullable(),
  created_at: zTimestamp,
  answered_at: zTimestamp.nullable(),
  ended_at: zTimestamp.nullable(),
  duration: zCount.nullable(),
});

function durationOf(call: CallRecord): number | null {
  if (!call.answered_at || !call.ended_at) return null;
  return Math.max(0, Math.round((fromTimestamp(call.ended_at).getTime() - fromTimestamp(call.answered_at).getTime()) / 1000));
}

export function presentHistoryEntry(item: HistoryItem, viewerId: number, p: PresenterContext): z.input<typeof HistoryEntry> {
  const { call, caller, recipient } = item;
  return {
    id: call.id,
    call_id: String(call.id),
    direction: call.caller_id === viewerId ? 'outgoing' : 'incoming',
    status: call.status,
    call_type: call.call_type,
    is_group_call: call.group_id !== null,
    group_id: call.group_id,
    caller_id: call.caller_id,
    caller_username: caller?.username ?? null,
    caller_avatar: avatar(caller),
    recipient_id: call.recipient_id,
    recipient_username: recipient?.username ?? null,
    recipient_avatar: avatar(recipient),
    // Only while it rings: that is when a client needs it, and SDPs are kilobytes each.
    offer_sdp: call.status === 'ringing' ? call.offer_sdp : null,
    created_at: wireTime(p, call.created_at),
    answered_at: p.formatTime(call.answered_at),
    ended_at: p.formatTime(call.ended_at),
    duration: durationOf(call),
  };
}
