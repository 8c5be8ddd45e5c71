import { type Actor, Forbidden, Invalid, pageRequest } from '@plaza/domain';
import {
  CALL_TYPES,
  MAX_CANDIDATE_LENGTH,
  MAX_SDP_LENGTH,
  parseLastPoll,
  type CallService,
  type CallView,
  type TalkInviteService,
} from '@plaza/domain/calls';
import { z } from 'zod';
import { paginationQuery, zId } from '../http/fields.js';
import { op, type OperationContext, type Script } from '../http/operation.js';
import type { PresenterContext } from '../presenters/context.js';
import {
  CallItem,
  HistoryEntry,
  IceCandidateItem,
  ParticipantItem,
  PeerAnswerItem,
  PeerOfferItem,
  presentCall,
  presentHistoryEntry,
  presentIceCandidate,
  presentParticipant,
  presentPeerAnswer,
  presentPeerOffer,
} from '../presenters/call.js';
import { PageMetaWire, zTimestamp } from '../presenters/wire.js';

export interface CallsOptions {
  /** The value of X-Flutter-App / X-Mobile-App that identifies the official mobile client. */
  mobileAppMarker: string;
}

const sdp = z.string().max(MAX_SDP_LENGTH, `must be at most ${MAX_SDP_LENGTH} characters`);
const callRef = { call_id: zId };
/** The `timestamp` of the previous poll, echoed back (the ISO form is accepted too). */
const LAST_POLL = /^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}(\.\d+)?Z?$/;

/** The candidate object the clients send, or its JSON text; stored and returned as JSON text. */
export const IceCandidateInput = z.union([
  z.object({
    candidate: z.string().max(MAX_CANDIDATE_LENGTH),
    sdpMid: z.string().max(64).nullish(),
    sdpMLineIndex: z.number().int().min(0).max(1000).nullish(),
    usernameFragment: z.string().max(256).nullish(),
  }),
  z.string().min(1).max(MAX_CANDIDATE_LENGTH),
]);

/** Normalises a candidate to the JSON text `{"candidate", "sdpMid", "sdpMLineIndex"}` the clients parse. */
function candidateJson(input: z.output<typeof IceCandidateInput>): string {
  let value: unknown = input;
  if (typeof input === 'string') {
    try {
      value = JSON.parse(input);
    } catch {
      // A bare `candidate:…` line, as some WebRTC stacks print it.
      value = { candidate: input };
    }
  }
  const parsed = z
    .object({
      candidate: z.string(),
      sdpMid: z.string().nullish(),
      sdpMLineIndex: z.number().int().nullish(),
      usernameFragment: z.string().nullish(),
    })
    .safeParse(value);
  if (!parsed.success)
    throw Invalid.field('candidate', 'must be an ICE candidate object {candidate, sdpMid, sdpMLineIndex} or its JSON text');
  const c = parsed.data;
  return JSON.stringify({
    candidate: c.candidate,
    sdpMid: c.sdpMid ?? null,
    sdpMLineIndex: c.sdpMLineIndex ?? null,
    ...(c.usernameFragment ? { usernameFragment: c.usernameFragment } : {}),
  });
}

/** What every call action answers under `data`. */
const CallData = z.object({ call_id: z.string(), status: CallItem.shape.status, call: CallItem, participants: z.array(ParticipantItem) });
const CallAnswer = z.object({ data: CallData });

/**
 * calls.php: WebRTC signalling for one-to-one and group calls (contract §32). Everything sits under
 * `data`; `call_id` is a string. Writes count in the `calls` group, poll and history in `reads` (the
 * client polls every 2 s). Every operation requires the mobile-app marker header (DESIGN.md §2),
 * except `reject`, which the Android notification's decline button sends without it (contract §34;
 * docs/decisions/0020).
 */
/** Also the library's check (docs/decisions/0113). */
export const initiateBody = z.object({
  recipient_id: zId.nullish(),
  group_id: zId.nullish(),
  call_type: z.enum(CALL_TYPES).default('audio'),
  offer: sdp.nullish(),
});
export const talkInviteBody = z.object({
  group_id: zId,
  room_token: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be 1 to 64 letters, digits, - or _'),
  call_type: z.enum(CALL_TYPES).optional(),
  room_url: z
    .string()
    .max(2048)
    .regex(/^https:\/\/\S+$/, 'must be an https:// URL')
    .nullish(),
});
export const answerBody = z.object({ ...callRef, answer: sdp.optional(), answer_sdp: sdp.optional() });
export const joinBody = z.object({ ...callRef, offer: sdp.nullish() });
export const peerOfferBody = z.object({ ...callRef, to_user_id: zId, offer: sdp.optional(), offer_sdp: sdp.optional() });
export const iceCandidateBody = z.object({ ...callRef, candidate: IceCandidateInput, to_user_id: zId.nullish() });
export const iceRestartBody = z.object({ ...callRef, offer: sdp.optional(), offer_sdp: sdp.optional(), to_user_id: zId.nullish() });
export const pollQuery = z.object({
  ...callRef,
  last_poll: z.string().max(40).regex(LAST_POLL, 'must be a timestamp YYYY-MM-DD HH:MM:SS').optional(),
});

export function callsScript(calls: CallService, talk: TalkInviteService, p: PresenterContext, options: CallsOptions): Script {
  const rl = 'calls' as const;
  const requireApp = (ctx: Pick<OperationContext<unknown, unknown, Actor>, 'request'>) => {
    const h = ctx.request.headers;
    const sent = [h['x-flutter-app'], h['x-mobile-app']].flat().filter((v): v is string => typeof v === 'string');
    if (!sent.includes(options.mobileAppMarker)) {
      throw new Forbidden(
        'calls.php is reserved to the mobile app: send the X-Flutter-App (or X-Mobile-App) header',
        'mobile_app_required',
      );
    }
  };
  const answerWith = (view: CallView) => ({
    data: {
      call_id: String(view.call.id),
      status: view.call.status,
      call: presentCall(view, p),
      participants: view.participants.map((v) => presentParticipant(v, p)),
    },
  });

  /** A call's state change that takes only the call: answers the call as it is afterwards. */
  const transition = (
    action: 'reject' | 'leave' | 'end',
    summary: string,
    run: (actor: Actor, callId: number) => Promise<CallView>,
    { appOnly = true } = {},
  ) =>
    op({
      method: 'POST',
      select: { action },
      auth: 'required',
      rateLimit: rl,
      body: z.object(callRef),
      summary,
      response: CallAnswer,
      handle: async (ctx) => {
        if (appOnly) requireApp(ctx);
        return answerWith(await run(ctx.actor, ctx.body.call_id));
      },
    });

  return {
    name: 'calls',
    operations: [
      op({
        method: 'POST',
        select: { action: 'initiate' },
        auth: 'required',
        rateLimit: rl,
        body: initiateBody,
        summary:
          'Start a one-to-one call (recipient_id) or a group call (group_id) with call_type and offer; answers data.call_id as a string',
        response: CallAnswer,
        handle: async (ctx) => {
          requireApp(ctx);
          return answerWith(await calls.initiate(ctx.actor, ctx.body));
        },
      }),
      op({
        method: 'POST',
        select: { action: 'initiate_talk' },
        auth: 'required',
        rateLimit: rl,
        body: talkInviteBody,
        summary: "Invite a group to an external conference room: the link is posted in the group's chat and pushed (talk_invite)",
        response: z.object({
          data: z.object({
            group_id: z.number().int().positive(),
            group_name: z.string(),
            room_token: z.string(),
            room_url: z.string(),
            call_type: z.enum(CALL_TYPES),
            message_id: z.number().int().positive(),
            invited: z.number().int().nonnegative(),
          }),
        }),
        handle: async (ctx) => {
          requireApp(ctx);
          return { data: await talk.invite(ctx.actor, ctx.body) };
        },
      }),
      op({
        method: 'POST',
        select: { action: 'answer' },
        auth: 'required',
        rateLimit: rl,
        body: answerBody,
        summary: 'Answer a ringing one-to-one call (or answer a renegotiated offer)',
        response: CallAnswer,
        handle: async (ctx) => {
          requireApp(ctx);
          return answerWith(await calls.answer(ctx.actor, ctx.body.call_id, ctx.body.answer ?? ctx.body.answer_sdp));
        },
      }),
      op({
        method: 'POST',
        select: { action: 'join' },
        auth: 'required',
        rateLimit: rl,
        body: joinBody,
        summary: 'Join a group call; answers the other participants already in it',
        response: z.object({ data: CallData.extend({ other_participants: z.array(z.number().int().positive()) }) }),
        handle: async (ctx) => {
          requireApp(ctx);
          const { view, others } = await calls.join(ctx.actor, ctx.body.call_id, ctx.body.offer);
          return { data: { ...answerWith(view).data, other_participants: others } };
        },
      }),
      op({
        method: 'POST',
        select: { action: 'peer_offer' },
        auth: 'required',
        rateLimit: rl,
        body: peerOfferBody,
        summary: 'Send a WebRTC offer to one participant of a group call',
        response: z.object({ data: z.object({ call_id: z.string(), signal_id: z.number().int().positive() }) }),
        handle: async (ctx) => {
          requireApp(ctx);
          const s = await calls.peerSignal(ctx.actor, ctx.body.call_id, {
            to_user_id: ctx.body.to_user_id,
            kind: 'offer',
            sdp: ctx.body.offer ?? ctx.body.offer_sdp,
          });
          return { data: { call_id: String(s.call_id), signal_id: s.id } };
        },
      }),
      op({
        method: 'POST',
        select: { action: 'peer_answer' },
        auth: 'required',
        rateLimit: rl,
        body: z.object({ ...callRef, to_user_id: zId, answer: sdp.optional(), answer_sdp: sdp.optional() }),
        summary: 'Send a WebRTC answer to one participant of a group call',
        response: z.object({ data: z.object({ call_id: z.string(), signal_id: z.number().int().positive() }) }),
        handle: async (ctx) => {
          requireApp(ctx);
          const s = await calls.peerSignal(ctx.actor, ctx.body.call_id, {
            to_user_id: ctx.body.to_user_id,
            kind: 'answer',
            sdp: ctx.body.answer ?? ctx.body.answer_sdp,
          });
          return { data: { call_id: String(s.call_id), signal_id: s.id } };
        },
      }),
      op({
        method: 'POST',
        select: { action: 'ice_candidate' },
        auth: 'required',
        rateLimit: rl,
        body: iceCandidateBody,
        summary: 'Send an ICE candidate ({candidate, sdpMid, sdpMLineIndex}) to the other side, or to to_user_id',
        response: z.object({ data: z.object({ call_id: z.string(), candidate_id: z.number().int().positive() }) }),
        handle: async (ctx) => {
          requireApp(ctx);
          const s = await calls.iceCandidate(ctx.actor, ctx.body.call_id, {
            candidate: candidateJson(ctx.body.candidate),
            to_user_id: ctx.body.to_user_id,
          });
          return { data: { call_id: String(s.call_id), candidate_id: s.id } };
        },
      }),
      op({
        method: 'POST',
        select: { action: 'ice_restart' },
        auth: 'required',
        rateLimit: rl,
        body: iceRestartBody,
        summary: 'Restart ICE after a network change: a new offer (the callee answers it again)',
        response: CallAnswer,
        handle: async (ctx) => {
          requireApp(ctx);
          return answerWith(
            await calls.iceRestart(ctx.actor, ctx.body.call_id, {
              offer: ctx.body.offer ?? ctx.body.offer_sdp,
              to_user_id: ctx.body.to_user_id,
            }),
          );
        },
      }),
      transition(
        'reject',
        'Decline a ringing call (also accepted without the app header: the Android decline button)',
        (actor, id) => calls.reject(actor, id),
        { appOnly: false },
      ),
      transition('leave', 'Leave a group call without ending it (the last one out ends it); ends a one-to-one call', (actor, id) =>
        calls.leave(actor, id),
      ),
      transition('end', 'End a call (a group call ends for everyone when its initiator ends it)', (actor, id) => calls.end(actor, id)),
      op({
        method: 'GET',
        select: { action: 'poll' },
        auth: 'required',
        query: pollQuery,
        summary: 'Call status, SDPs, participants, and the signals sent to me since last_poll; echo timestamp back as last_poll',
        response: z.object({
          data: z.object({
            timestamp: zTimestamp,
            call: CallItem,
            participants: z.array(ParticipantItem),
            ice_candidates: z.array(IceCandidateItem),
            peer_offers: z.array(PeerOfferItem),
            peer_answers: z.array(PeerAnswerItem),
          }),
        }),
        handle: async (ctx) => {
          requireApp(ctx);
          let lastPoll: string | null = null;
          if (ctx.query.last_poll !== undefined && ctx.query.last_poll.trim() !== '') {
            lastPoll = parseLastPoll(ctx.query.last_poll);
            if (lastPoll === null)
              throw Invalid.field('last_poll', 'must be a timestamp YYYY-MM-DD HH:MM:SS (the timestamp of the previous poll)');
          }
          const r = await calls.poll(ctx.actor, ctx.query.call_id, lastPoll);
          return {
            data: {
              // The cursor is stored time (UTC), echoed back untouched: it is not shown to anyone.
              timestamp: r.timestamp,
              call: presentCall(r, p),
              participants: r.participants.map((v) => presentParticipant(v, p)),
              ice_candidates: r.ice_candidates.map((s) => presentIceCandidate(s, p)),
              peer_offers: r.peer_offers.map((s) => presentPeerOffer(s, p)),
              peer_answers: r.peer_answers.map((s) => presentPeerAnswer(s, p)),
            },
          };
        },
      }),
      op({
        method: 'GET',
        select: { action: 'history' },
        auth: 'required',
        query: z.object(paginationQuery),
        summary: 'My calls, newest first, with direction, status, caller and call type',
        response: z.object({ data: z.object({ data: z.array(HistoryEntry), meta: PageMetaWire }) }),
        handle: async (ctx) => {
          requireApp(ctx);
          const r = await calls.history(ctx.actor, pageRequest(ctx.query.page, ctx.query.per_page));
          return { data: { data: r.items.map((i) => presentHistoryEntry(i, ctx.actor.userId, p)), meta: r.meta } };
        },
      }),
    ],
  };
}
