import type { UserRepository } from '../accounts/ports.js';
import type { UserRecord } from '../accounts/user.js';
import type { MessageGroupRecord, MessageGroupRepository } from '../messaging/ports.js';
import type { PushSender } from '../notifications/ports.js';
import type { Actor } from '../shared/actor.js';
import type { Clock } from '../shared/clock.js';
import { Conflict, Forbidden, Invalid, NotFound } from '../shared/errors.js';
import { pageMeta, type PageMeta, type PageRequest } from '../shared/pagination.js';
import { addSeconds, fromTimestamp, toTimestamp, type Timestamp } from '../shared/time.js';
import type { UnitOfWork } from '../shared/unit-of-work.js';
import { incomingCallPush } from './call-push.js';
import {
  CALL_TYPES,
  MAX_CANDIDATE_LENGTH,
  MAX_SDP_LENGTH,
  MAX_SIGNALS_PER_POLL,
  OPEN_STATUSES,
  RING_TIMEOUT_SECONDS,
  type CallParticipantRecord,
  type CallRecord,
  type CallSignalRecord,
  type CallType,
  type NewSignal,
} from './model.js';
import type { CallRepository } from './ports.js';
import { decodeSignalCursor, encodeSignalCursor } from './signal-cursor.js';

export interface InitiateInput {
  recipient_id?: number | null;
  group_id?: number | null;
  call_type: string;
  offer?: string | null;
}

export interface ParticipantView {
  participant: CallParticipantRecord;
  user: UserRecord | null;
}

export interface CallView {
  call: CallRecord;
  caller: UserRecord | null;
  recipient: UserRecord | null;
  participants: ParticipantView[];
}

export interface PollResult extends CallView {
  ice_candidates: CallSignalRecord[];
  peer_offers: CallSignalRecord[];
  peer_answers: CallSignalRecord[];
  /** Echoed back as `last_poll`: the next poll returns only the signals after it (an opaque cursor, signal-cursor.ts). */
  timestamp: Timestamp;
}

export interface HistoryItem {
  call: CallRecord;
  caller: UserRecord | null;
  recipient: UserRecord | null;
}

/** Accepts `YYYY-MM-DD HH:MM:SS` and the ISO form with `T` (and an optional `Z`); null when neither. */
export function parseLastPoll(value: string): Timestamp | null {
  const m = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}:\d{2})(?:\.\d+)?Z?$/.exec(value.trim());
  if (!m) return null;
  const ts = `${m[1]} ${m[2]}`;
  return Number.isNaN(fromTimestamp(ts).getTime()) ? null : ts;
}

/**
 * WebRTC call signalling (calls.php). The server never carries media: it stores the offer and answer
 * of a one-to-one call, relays ICE candidates and (for mesh group calls) per-peer offers and answers,
 * and keeps each call's status. Only a call's participants may read or act on it; anyone else is told
 * the call does not exist.
 *
 * Status changes are single conditional writes (`transition`), so of two requests racing to answer,
 * reject or end one call exactly one moves it; decisions that read the participants first (the last
 * one leaving ends a group call; one open call per group) run in a unit of work under a lock.
 */
export class CallService {
  constructor(
    private readonly calls: CallRepository,
    private readonly users: UserRepository,
    private readonly groups: MessageGroupRepository,
    private readonly push: PushSender,
    private readonly clock: Clock,
    private readonly uow: UnitOfWork,
  ) {}

  private now(): Timestamp {
    return toTimestamp(this.clock.now());
  }

  async initiate(actor: Actor, input: InitiateInput): Promise<CallView> {
    const callType = checkCallType(input.call_type);
    const hasRecipient = input.recipient_id !== undefined && input.recipient_id !== null;
    const hasGroup = input.group_id !== undefined && input.group_id !== null;
    if (hasRecipient === hasGroup) {
      throw new Invalid('Send either recipient_id (one-to-one call) or group_id (group call)', 'invalid_input', [
        { field: 'recipient_id', problem: 'send exactly one of recipient_id and group_id' },
      ]);
    }
    return hasGroup
      ? this.initiateGroup(actor, input.group_id!, callType, input.offer ?? null)
      : this.initiateDirect(actor, input.recipient_id!, callType, input.offer);
  }

  private async initiateDirect(actor: Actor, recipientId: number, callType: CallType, offer: string | null | undefined): Promise<CallView> {
    if (recipientId === actor.userId) throw Invalid.field('recipient_id', 'you cannot call yourself', 'invalid_recipient');
    const sdp = checkSdp('offer', offer);
    const [caller, recipient] = await Promise.all([this.users.findById(actor.userId), this.users.findById(recipientId)]);
    if (!recipient || recipient.deleted_at) throw new NotFound('User not found', 'user_not_found');
    const now = this.now();
    const call = await this.calls.create(
      { caller_id: actor.userId, recipient_id: recipientId, group_id: null, call_type: callType, offer_sdp: sdp, created_at: now },
      [
        { user_id: actor.userId, status: 'joined', at: now },
        { user_id: recipientId, status: 'invited', at: now },
      ],
    );
    if (caller) await this.push.send(recipientId, incomingCallPush(call, caller, null));
    return this.view(call);
  }

  /**
   * One open call per group: under the group's lock, a second initiate joins the call already
   * ringing or active instead of starting another. Only the members present when it starts are
   * rung; members who join the group later may still join the call.
   */
  private async initiateGroup(actor: Actor, groupId: number, callType: CallType, offer: string | null): Promise<CallView> {
    if (offer !== null && offer.length > MAX_SDP_LENGTH) throw Invalid.field('offer', `must be at most ${MAX_SDP_LENGTH} characters`);
    const { call, group, created } = await this.uow.run(async () => {
      await this.groups.lockGroup(groupId);
      const group = await this.memberGroup(actor, groupId);
      const now = this.now();
      const open = await this.calls.openCallOfGroup(groupId);
      if (open && !this.isDue(open)) {
        await this.calls.putParticipant(open.id, actor.userId, 'joined', now);
        await this.activateIfOthers(open, actor);
        return { call: (await this.calls.findById(open.id))!, group, created: false };
      }
      if (open) await this.expire(open);
      const members = await this.groups.members(groupId);
      const call = await this.calls.create(
        {
          caller_id: actor.userId,
          recipient_id: null,
          group_id: groupId,
          call_type: callType,
          offer_sdp: offer && offer.trim() !== '' ? offer : null,
          created_at: now,
        },
        [
          { user_id: actor.userId, status: 'joined', at: now },
          ...members.filter((m) => m.user_id !== actor.userId).map((m) => ({ user_id: m.user_id, status: 'invited' as const, at: now })),
        ],
      );
      return { call, group, created: true };
    });
    if (created) {
      // After the unit: a push cannot be taken back if the unit had to run again.
      const caller = await this.users.findById(actor.userId);
      const invited = (await this.calls.participants(call.id)).filter((p) => p.status === 'invited');
      if (caller) for (const p of invited) await this.push.send(p.user_id, incomingCallPush(call, caller, group));
    }
    return this.view(call);
  }

  /** The callee accepts a ringing call; an answer to an active call is a renegotiation (after an ICE restart). */
  async answer(actor: Actor, callId: number, answer: string | null | undefined): Promise<CallView> {
    const sdp = checkSdp('answer', answer);
    const call = await this.directCall(actor, callId);
    if (call.recipient_id !== actor.userId) throw new Forbidden('Only the person called can answer', 'not_callee');
    const now = this.now();
    await this.uow.run(async () => {
      if (await this.calls.transition(call.id, ['ringing'], { status: 'active', answer_sdp: sdp, answered_at: now })) {
        await this.calls.putParticipant(call.id, actor.userId, 'joined', now);
      } else if (!(await this.calls.setSdp(call.id, ['active'], { answer_sdp: sdp }))) {
        throw await this.closed(call.id);
      }
    });
    return this.view((await this.calls.findById(call.id))!);
  }

  /** Joins a group call; answers who else is in it (the mesh clients offer to each of them). */
  async join(actor: Actor, callId: number, offer?: string | null): Promise<{ view: CallView; others: number[] }> {
    const call = await this.readable(actor, callId, { groupMembersToo: true });
    if (call.group_id === null) throw new Invalid('join is for group calls; answer a one-to-one call', 'not_group_call');
    if (offer !== undefined && offer !== null && offer.length > MAX_SDP_LENGTH)
      throw Invalid.field('offer', `must be at most ${MAX_SDP_LENGTH} characters`);
    const now = this.now();
    await this.uow.run(async () => {
      await this.calls.lockCall(call.id);
      const current = (await this.calls.findById(call.id))!;
      if (!OPEN_STATUSES.includes(current.status)) throw await this.closed(call.id);
      await this.calls.putParticipant(call.id, actor.userId, 'joined', now);
      await this.activateIfOthers(current, actor);
      // A mesh-era join carries the joiner's offer for everyone already there.
      if (offer && offer.trim() !== '' && offer.trim() !== 'v=0') {
        await this.calls.addSignal({
          call_id: call.id,
          from_user_id: actor.userId,
          to_user_id: null,
          kind: 'offer',
          payload: offer,
          created_at: now,
        });
      }
    });
    const view = await this.view((await this.calls.findById(call.id))!);
    const others = view.participants
      .filter((p) => p.participant.status === 'joined' && p.participant.user_id !== actor.userId)
      .map((p) => p.participant.user_id);
    return { view, others };
  }

  /** A WebRTC offer or answer for one other participant (mesh group calls, and per-peer ICE restarts). */
  async peerSignal(
    actor: Actor,
    callId: number,
    input: { to_user_id: number; kind: 'offer' | 'answer'; sdp: string | null | undefined },
  ): Promise<CallSignalRecord> {
    const sdp = checkSdp(input.kind, input.sdp);
    const call = await this.openCall(actor, callId);
    await this.otherParticipant(call, actor, input.to_user_id);
    return this.addSignal({
      call_id: call.id,
      from_user_id: actor.userId,
      to_user_id: input.to_user_id,
      kind: input.kind,
      payload: sdp,
      created_at: this.now(),
    });
  }

  /**
   * Relays one ICE candidate, stored as the JSON text the clients read back. Without `to_user_id` it
   * goes to the other side of a one-to-one call, or to every other participant of a group call.
   */
  async iceCandidate(actor: Actor, callId: number, input: { candidate: string; to_user_id?: number | null }): Promise<CallSignalRecord> {
    if (input.candidate.length > MAX_CANDIDATE_LENGTH)
      throw Invalid.field('candidate', `must be at most ${MAX_CANDIDATE_LENGTH} characters`);
    const call = await this.openCall(actor, callId);
    let to: number | null = input.to_user_id ?? null;
    if (to !== null) await this.otherParticipant(call, actor, to);
    else if (call.group_id === null) to = call.caller_id === actor.userId ? call.recipient_id : call.caller_id;
    return this.addSignal({
      call_id: call.id,
      from_user_id: actor.userId,
      to_user_id: to,
      kind: 'ice',
      payload: input.candidate,
      created_at: this.now(),
    });
  }

  /**
   * After a network change the caller sends a new offer: it replaces the call's offer and clears the
   * answer, which the callee's client sees on its next poll and answers again. In a group call the
   * new offer goes to one peer (`to_user_id`), as a peer offer.
   */
  async iceRestart(
    actor: Actor,
    callId: number,
    input: { offer: string | null | undefined; to_user_id?: number | null },
  ): Promise<CallView> {
    const sdp = checkSdp('offer', input.offer);
    const call = await this.openCall(actor, callId);
    if (input.to_user_id !== undefined && input.to_user_id !== null) await this.otherParticipant(call, actor, input.to_user_id);
    if (call.group_id !== null) {
      if (input.to_user_id === undefined || input.to_user_id === null) throw Invalid.field('to_user_id', 'is required in a group call');
      await this.peerSignal(actor, callId, { to_user_id: input.to_user_id, kind: 'offer', sdp });
      return this.view(call);
    }
    if (call.caller_id !== actor.userId) throw new Forbidden('Only the caller restarts ICE; answer the new offer instead', 'not_caller');
    if (!(await this.calls.setSdp(call.id, ['active'], { offer_sdp: sdp, answer_sdp: null }))) {
      const now = (await this.calls.findById(call.id))!;
      throw now.status === 'ringing' ? new Conflict('The call has not been answered yet', 'call_not_active') : await this.closed(call.id);
    }
    return this.view((await this.calls.findById(call.id))!);
  }

  /**
   * The callee declines a ringing one-to-one call (declining twice is harmless); in a group call an
   * invited member declines for themselves and the call goes on.
   */
  async reject(actor: Actor, callId: number): Promise<CallView> {
    const call = await this.readable(actor, callId);
    const now = this.now();
    if (call.group_id !== null) {
      const me = await this.calls.participant(call.id, actor.userId);
      if (me?.status === 'joined') throw new Conflict('You are in this call: leave it instead', 'already_joined');
      await this.calls.putParticipant(call.id, actor.userId, 'rejected', now);
      return this.view((await this.calls.findById(call.id))!);
    }
    if (call.recipient_id !== actor.userId) throw new Forbidden('Only the person called can reject; end the call instead', 'not_callee');
    await this.uow.run(async () => {
      if (await this.calls.transition(call.id, ['ringing'], { status: 'rejected', ended_at: now })) {
        await this.calls.putParticipant(call.id, actor.userId, 'rejected', now);
        return;
      }
      const current = (await this.calls.findById(call.id))!;
      if (current.status !== 'rejected') throw await this.closed(call.id, 'The call can no longer be rejected');
    });
    return this.view((await this.calls.findById(call.id))!);
  }

  /**
   * Leaves a group call; the last participant to leave ends it. Leaving a one-to-one call ends it.
   */
  async leave(actor: Actor, callId: number): Promise<CallView> {
    const call = await this.readable(actor, callId);
    if (call.group_id === null) return this.end(actor, callId);
    const now = this.now();
    await this.uow.run(async () => {
      await this.calls.lockCall(call.id);
      await this.calls.putParticipant(call.id, actor.userId, 'left', now);
      const stillIn = (await this.calls.participants(call.id)).filter((p) => p.status === 'joined');
      if (stillIn.length === 0) await this.calls.transition(call.id, OPEN_STATUSES, { status: 'ended', ended_at: now });
    });
    return this.view((await this.calls.findById(call.id))!);
  }

  /**
   * Ends a call for everyone: either side of a one-to-one call, the initiator of a group call (for
   * anyone else in a group call, ending is leaving). Ending an ended call changes nothing.
   */
  async end(actor: Actor, callId: number): Promise<CallView> {
    const call = await this.readable(actor, callId);
    if (call.group_id !== null && call.caller_id !== actor.userId) return this.leave(actor, callId);
    const now = this.now();
    await this.uow.run(async () => {
      if (!(await this.calls.transition(call.id, OPEN_STATUSES, { status: 'ended', ended_at: now }))) return;
      for (const p of await this.calls.participants(call.id)) {
        if (p.status === 'joined') await this.calls.putParticipant(call.id, p.user_id, 'left', now);
      }
    });
    return this.view((await this.calls.findById(call.id))!);
  }

  /**
   * Everything a participant's client needs every 2 seconds: the call, its participants, and the
   * signals addressed to them since `lastPoll`. `timestamp` is the cursor the client echoes back: the
   * last signal id this poll covered (signal-cursor.ts), so a signal sent just before a poll is in that
   * poll, and none is returned twice or skipped (docs/decisions/0151).
   */
  async poll(actor: Actor, callId: number, lastPoll?: Timestamp | null): Promise<PollResult> {
    // Sent every 2 seconds by each side: the participants are read once, both to tell whether the
    // actor takes part (as `readable` does) and to answer with them.
    const found = await this.calls.findById(callId);
    const participants = found ? await this.calls.participants(found.id) : [];
    if (!found || !participants.some((p) => p.user_id === actor.userId)) throw new NotFound('Call not found', 'call_not_found');
    const call = await this.expire(found);
    const after = lastPoll ? decodeSignalCursor(lastPoll) : null;
    const signals = await this.calls.signalsFor(call.id, actor.userId, after, MAX_SIGNALS_PER_POLL);
    const lastId = signals.length ? signals[signals.length - 1].id : after && 'afterId' in after ? after.afterId : 0;
    return {
      ...(await this.view(call, participants)),
      ice_candidates: signals.filter((s) => s.kind === 'ice'),
      peer_offers: signals.filter((s) => s.kind === 'offer'),
      peer_answers: signals.filter((s) => s.kind === 'answer'),
      timestamp: encodeSignalCursor(lastId),
    };
  }

  /** Stores a signal under the call's lock, so that one call's signals commit in id order (see `poll`). */
  private addSignal(signal: NewSignal): Promise<CallSignalRecord> {
    return this.uow.run(async () => {
      await this.calls.lockCall(signal.call_id);
      return this.calls.addSignal(signal);
    });
  }

  /** My calls, newest first; calls left ringing past the timeout are missed by then. */
  async history(actor: Actor, page: PageRequest): Promise<{ items: HistoryItem[]; meta: PageMeta }> {
    await this.missOverdue();
    const { items, total } = await this.calls.history(actor.userId, page);
    const ids = [...new Set(items.flatMap((c) => (c.recipient_id !== null ? [c.caller_id, c.recipient_id] : [c.caller_id])))];
    const users = new Map((ids.length ? await this.users.findByIds(ids) : []).map((u) => [u.id, u]));
    return {
      items: items.map((call) => ({
        call,
        caller: users.get(call.caller_id) ?? null,
        recipient: call.recipient_id !== null ? (users.get(call.recipient_id) ?? null) : null,
      })),
      meta: pageMeta(page, total),
    };
  }

  /** The periodic job: calls nobody answered within the ring timeout become missed. */
  missOverdue(): Promise<number> {
    return this.calls.missRinging(toTimestamp(addSeconds(this.clock.now(), -RING_TIMEOUT_SECONDS)), this.now());
  }

  private isDue(call: CallRecord): boolean {
    return call.status === 'ringing' && call.created_at <= toTimestamp(addSeconds(this.clock.now(), -RING_TIMEOUT_SECONDS));
  }

  private async expire(call: CallRecord): Promise<CallRecord> {
    if (!this.isDue(call)) return call;
    await this.calls.transition(call.id, ['ringing'], { status: 'missed', ended_at: this.now() });
    return (await this.calls.findById(call.id))!;
  }

  /** A group call becomes active once someone other than its initiator is in it. */
  private async activateIfOthers(call: CallRecord, actor: Actor): Promise<void> {
    if (call.status === 'ringing' && call.caller_id !== actor.userId) {
      await this.calls.transition(call.id, ['ringing'], { status: 'active', answered_at: this.now() });
    }
  }

  /**
   * The call, if the actor takes part in it (or, with `groupMembersToo`, belongs to its group), with
   * an overdue ring already turned into a miss. Anyone else is told it does not exist.
   */
  private async readable(actor: Actor, callId: number, options: { groupMembersToo?: boolean } = {}): Promise<CallRecord> {
    const call = await this.calls.findById(callId);
    const notFound = new NotFound('Call not found', 'call_not_found');
    if (!call) throw notFound;
    if (!(await this.calls.participant(call.id, actor.userId))) {
      if (!options.groupMembersToo || call.group_id === null || !(await this.groups.membership(call.group_id, actor.userId)))
        throw notFound;
    }
    return this.expire(call);
  }

  private async directCall(actor: Actor, callId: number): Promise<CallRecord> {
    const call = await this.readable(actor, callId);
    if (call.group_id !== null) throw new Invalid('A group call is joined, not answered: use join', 'group_call');
    return call;
  }

  /** A call still ringing or active: signals for a finished call are refused. */
  private async openCall(actor: Actor, callId: number): Promise<CallRecord> {
    const call = await this.readable(actor, callId);
    if (!OPEN_STATUSES.includes(call.status)) throw await this.closed(call.id);
    return call;
  }

  private async otherParticipant(call: CallRecord, actor: Actor, userId: number): Promise<void> {
    if (userId === actor.userId) throw Invalid.field('to_user_id', 'must be another participant');
    if (!(await this.calls.participant(call.id, userId)))
      throw Invalid.field('to_user_id', 'is not a participant of this call', 'not_participant');
  }

  private async memberGroup(actor: Actor, groupId: number): Promise<MessageGroupRecord> {
    const group = await this.groups.findById(groupId);
    if (!group) throw new NotFound('Group not found', 'group_not_found');
    if (!(await this.groups.membership(groupId, actor.userId))) throw new Forbidden('You are not a member of this group', 'not_member');
    return group;
  }

  /** The refusal for acting on a call that moved on: 409 naming its status. */
  private async closed(callId: number, message?: string): Promise<Conflict> {
    const call = await this.calls.findById(callId);
    const status = call?.status ?? 'ended';
    return new Conflict(message ? `${message} (the call is ${status})` : `The call is ${status}`, `call_${status}`);
  }

  /** `participants`: the call's, when the caller has just read them (expiring a ring changes none). */
  private async view(call: CallRecord, participants?: CallParticipantRecord[]): Promise<CallView> {
    participants ??= await this.calls.participants(call.id);
    const ids = [
      ...new Set([call.caller_id, ...(call.recipient_id !== null ? [call.recipient_id] : []), ...participants.map((p) => p.user_id)]),
    ];
    const users = new Map((await this.users.findByIds(ids)).map((u) => [u.id, u]));
    return {
      call,
      caller: users.get(call.caller_id) ?? null,
      recipient: call.recipient_id !== null ? (users.get(call.recipient_id) ?? null) : null,
      participants: participants.map((p) => ({ participant: p, user: users.get(p.user_id) ?? null })),
    };
  }
}

function checkCallType(value: string): CallType {
  if (!(CALL_TYPES as readonly string[]).includes(value)) throw Invalid.field('call_type', `must be one of ${CALL_TYPES.join(', ')}`);
  return value as CallType;
}

function checkSdp(field: string, value: string | null | undefined): string {
  if (value === undefined || value === null || value.trim() === '') throw Invalid.field(field, 'is required (the session description)');
  if (value.length > MAX_SDP_LENGTH) throw Invalid.field(field, `must be at most ${MAX_SDP_LENGTH} characters`);
  return value;
}
