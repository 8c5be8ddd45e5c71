import { describe, expect, it } from 'vitest';
import { InMemoryUnitOfWork } from '../shared/testing/index.js';
import type { Actor } from '../shared/actor.js';
import { ManualClock } from '../shared/clock.js';
import { Conflict, Forbidden, Invalid, NotFound } from '../shared/errors.js';
import { InMemoryUserRepository } from '../accounts/testing/in-memory-accounts.js';
import { aNewUser } from '../accounts/testing/mothers.js';
import { InMemoryMessageGroupRepository } from '../messaging/testing/in-memory-messaging.js';
import { RecordingPushSender } from '../notifications/testing/in-memory-notifications.js';
import { InMemoryCallRepository } from './testing/in-memory-calls.js';
import { CallService, parseLastPoll } from './call-service.js';
import { MAX_PUSHED_OFFER } from './call-push.js';
import { toTimestamp } from '../shared/time.js';

const actor = (u: { id: number; username: string }): Actor => ({
  userId: u.id,
  username: u.username,
  isAdmin: false,
  isModerator: false,
  isTechnician: false,
});
const page = { page: 1, perPage: 20 };

async function setup() {
  const users = new InMemoryUserRepository();
  const groups = new InMemoryMessageGroupRepository();
  const calls = new InMemoryCallRepository();
  const push = new RecordingPushSender();
  const clock = new ManualClock('2026-03-01T10:00:00Z');
  const uow = new InMemoryUnitOfWork(calls, groups);
  const service = new CallService(calls, users, groups, push, clock, uow);
  const [a, b, c, d] = [
    await users.create(aNewUser()),
    await users.create(aNewUser()),
    await users.create(aNewUser()),
    await users.create(aNewUser()),
  ];
  return { users, groups, calls, push, clock, uow, service, a, b, c, d };
}

async function aGroup(groups: InMemoryMessageGroupRepository, admin: number, members: number[]) {
  return groups.create({ name: 'Cell', avatar: null, creator_id: admin, created_at: '2026-03-01 09:00:00' }, [
    { user_id: admin, role: 'admin' },
    ...members.map((m) => ({ user_id: m, role: 'member' as const })),
  ]);
}

describe('CallService: one-to-one calls', () => {
  it('rings the callee with a push carrying the incoming-call keys', async () => {
    const { service, push, a, b } = await setup();
    const { call } = await service.initiate(actor(a), { recipient_id: b.id, call_type: 'video', offer: 'v=0 offer' });
    expect(call).toMatchObject({ status: 'ringing', caller_id: a.id, recipient_id: b.id, offer_sdp: 'v=0 offer', call_type: 'video' });
    expect(push.sent).toEqual([
      {
        userId: b.id,
        message: expect.objectContaining({
          data: expect.objectContaining({
            type: 'call',
            call_id: String(call.id),
            caller_id: String(a.id),
            caller_name: a.username,
            call_type: 'video',
            is_video: 'true',
            is_group_call: 'false',
            offer_sdp: 'v=0 offer',
          }),
        }),
      },
    ]);
  });

  it('keeps a long offer out of the push (the client reads it by polling)', async () => {
    const { service, push, a, b } = await setup();
    await service.initiate(actor(a), { recipient_id: b.id, call_type: 'audio', offer: 'x'.repeat(MAX_PUSHED_OFFER + 1) });
    expect(push.sent[0].message.data.offer_sdp).toBeUndefined();
  });

  it('refuses bad initiations before writing anything', async () => {
    const { service, calls, a, b } = await setup();
    await expect(service.initiate(actor(a), { call_type: 'audio', offer: 'o' })).rejects.toThrow(Invalid);
    await expect(service.initiate(actor(a), { recipient_id: b.id, group_id: 1, call_type: 'audio', offer: 'o' })).rejects.toThrow(Invalid);
    await expect(service.initiate(actor(a), { recipient_id: b.id, call_type: 'hologram', offer: 'o' })).rejects.toThrow(/call_type/);
    await expect(service.initiate(actor(a), { recipient_id: b.id, call_type: 'audio', offer: ' ' })).rejects.toThrow(/offer/);
    await expect(service.initiate(actor(a), { recipient_id: a.id, call_type: 'audio', offer: 'o' })).rejects.toThrow(/yourself/);
    await expect(service.initiate(actor(a), { recipient_id: 999, call_type: 'audio', offer: 'o' })).rejects.toThrow(NotFound);
    expect(calls.calls).toEqual([]);
  });

  it('answers, relays ICE both ways once each, and ends', async () => {
    const { service, clock, a, b } = await setup();
    const { call } = await service.initiate(actor(a), { recipient_id: b.id, call_type: 'audio', offer: 'offer' });
    await service.iceCandidate(actor(a), call.id, { candidate: '{"candidate":"a1"}' });
    clock.advance(2000);
    const first = await service.poll(actor(b), call.id);
    expect(first.call.status).toBe('ringing');
    expect(first.ice_candidates.map((s) => s.payload)).toEqual(['{"candidate":"a1"}']);
    await service.answer(actor(b), call.id, 'answer');
    await service.iceCandidate(actor(b), call.id, { candidate: '{"candidate":"b1"}' });
    clock.advance(2000);
    const caller = await service.poll(actor(a), call.id);
    expect(caller.call).toMatchObject({ status: 'active', answer_sdp: 'answer' });
    expect(caller.ice_candidates.map((s) => s.payload)).toEqual(['{"candidate":"b1"}']);
    const again = await service.poll(actor(b), call.id, first.timestamp);
    expect(again.ice_candidates).toEqual([]);
    expect((await service.poll(actor(a), call.id, caller.timestamp)).ice_candidates).toEqual([]);
    await service.end(actor(a), call.id);
    expect((await service.poll(actor(b), call.id)).call.status).toBe('ended');
    await service.end(actor(b), call.id); // ending twice changes nothing
    await expect(service.iceCandidate(actor(a), call.id, { candidate: '{}' })).rejects.toThrow(Conflict);
  });

  it('returns a signal sent just before a poll in that poll, even within the same second, and never twice', async () => {
    const { service, clock, a, b } = await setup();
    const { call } = await service.initiate(actor(a), { recipient_id: b.id, call_type: 'audio', offer: 'offer' });
    clock.advance(5000);
    const p1 = await service.poll(actor(b), call.id);
    await service.iceCandidate(actor(a), call.id, { candidate: 'same second' });
    const p2 = await service.poll(actor(b), call.id, p1.timestamp);
    expect(p2.ice_candidates.map((s) => s.payload)).toEqual(['same second']);
    expect((await service.poll(actor(b), call.id, p2.timestamp)).ice_candidates).toEqual([]);
    // A lost answer: the client polls again with the cursor it still has, and gets the signal again.
    expect((await service.poll(actor(b), call.id, p1.timestamp)).ice_candidates.map((s) => s.payload)).toEqual(['same second']);
    expect(p2.timestamp).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
  });

  it('still reads a real time as last_poll (a client of the older server): signals after that second', async () => {
    const { service, clock, a, b } = await setup();
    const { call } = await service.initiate(actor(a), { recipient_id: b.id, call_type: 'audio', offer: 'offer' });
    await service.iceCandidate(actor(a), call.id, { candidate: 'old' });
    const before = toTimestamp(clock.now());
    clock.advance(2000);
    await service.iceCandidate(actor(a), call.id, { candidate: 'new' });
    expect((await service.poll(actor(b), call.id, before)).ice_candidates.map((s) => s.payload)).toEqual(['new']);
  });

  it('lets only the callee answer or reject, and only participants see the call', async () => {
    const { service, a, b, c } = await setup();
    const { call } = await service.initiate(actor(a), { recipient_id: b.id, call_type: 'audio', offer: 'offer' });
    await expect(service.answer(actor(a), call.id, 'x')).rejects.toThrow(Forbidden);
    await expect(service.reject(actor(a), call.id)).rejects.toThrow(Forbidden);
    for (const act of [
      () => service.poll(actor(c), call.id),
      () => service.answer(actor(c), call.id, 'x'),
      () => service.iceCandidate(actor(c), call.id, { candidate: '{}' }),
      () => service.end(actor(c), call.id),
      () => service.reject(actor(c), call.id),
    ]) {
      await expect(act()).rejects.toThrow(NotFound);
    }
    expect((await service.poll(actor(b), call.id)).call.status).toBe('ringing');
  });

  it('rejects once; a rejected call cannot be answered', async () => {
    const { service, a, b } = await setup();
    const { call } = await service.initiate(actor(a), { recipient_id: b.id, call_type: 'audio', offer: 'offer' });
    await service.reject(actor(b), call.id);
    await service.reject(actor(b), call.id);
    await expect(service.answer(actor(b), call.id, 'late')).rejects.toThrow(/rejected/);
  });

  it('turns a call ringing 45 seconds into a missed one', async () => {
    const { service, clock, a, b } = await setup();
    const { call } = await service.initiate(actor(a), { recipient_id: b.id, call_type: 'audio', offer: 'offer' });
    clock.advance(44_000);
    expect((await service.poll(actor(a), call.id)).call.status).toBe('ringing');
    clock.advance(1_000);
    expect((await service.poll(actor(a), call.id)).call.status).toBe('missed');
    await expect(service.answer(actor(b), call.id, 'too late')).rejects.toThrow(Conflict);
  });

  it('restarts ICE: the caller replaces the offer and the callee answers it again', async () => {
    const { service, a, b } = await setup();
    const { call } = await service.initiate(actor(a), { recipient_id: b.id, call_type: 'audio', offer: 'offer 1' });
    await expect(service.iceRestart(actor(a), call.id, { offer: 'offer 2' })).rejects.toThrow(/not been answered/);
    await service.answer(actor(b), call.id, 'answer 1');
    await expect(service.iceRestart(actor(b), call.id, { offer: 'x' })).rejects.toThrow(Forbidden);
    expect((await service.iceRestart(actor(a), call.id, { offer: 'offer 2' })).call).toMatchObject({
      offer_sdp: 'offer 2',
      answer_sdp: null,
    });
    expect((await service.answer(actor(b), call.id, 'answer 2')).call).toMatchObject({ status: 'active', answer_sdp: 'answer 2' });
  });

  it('lists history with direction for each side, newest first, missing overdue rings', async () => {
    const { service, clock, a, b } = await setup();
    const { call: first } = await service.initiate(actor(a), { recipient_id: b.id, call_type: 'audio', offer: 'o' });
    clock.advance(60_000);
    const { call: second } = await service.initiate(actor(b), { recipient_id: a.id, call_type: 'video', offer: 'o' });
    const h = await service.history(actor(a), page);
    expect(h.items.map((i) => [i.call.id, i.call.status, i.caller?.id])).toEqual([
      [second.id, 'ringing', b.id],
      [first.id, 'missed', a.id],
    ]);
    expect(h.meta).toEqual({ current_page: 1, per_page: 20, total: 2, total_pages: 1 });
  });
});

describe('CallService: group calls', () => {
  it('rings the members, joins, relays peer offers, and ends when the last one leaves', async () => {
    const { service, groups, push, clock, a, b, c, d } = await setup();
    const gid = await aGroup(groups, a.id, [b.id, c.id]);
    await expect(service.initiate(actor(d), { group_id: gid, call_type: 'audio', offer: 'v=0\r\n' })).rejects.toThrow(Forbidden);
    const { call } = await service.initiate(actor(a), { group_id: gid, call_type: 'audio', offer: 'v=0\r\n' });
    expect(push.sent.map((p) => [p.userId, p.message.data.is_group_call, p.message.data.group_id])).toEqual([
      [b.id, 'true', String(gid)],
      [c.id, 'true', String(gid)],
    ]);
    const joined = await service.join(actor(b), call.id);
    expect(joined.others).toEqual([a.id]);
    expect(joined.view.call.status).toBe('active');
    expect((await service.join(actor(c), call.id)).others).toEqual([a.id, b.id]);
    await service.peerSignal(actor(c), call.id, { to_user_id: a.id, kind: 'offer', sdp: 'c→a' });
    await service.peerSignal(actor(a), call.id, { to_user_id: c.id, kind: 'answer', sdp: 'a→c' });
    await expect(service.peerSignal(actor(a), call.id, { to_user_id: d.id, kind: 'offer', sdp: 'x' })).rejects.toThrow(/participant/);
    clock.advance(2000);
    const pa = await service.poll(actor(a), call.id);
    expect(pa.peer_offers.map((s) => [s.from_user_id, s.payload])).toEqual([[c.id, 'c→a']]);
    expect(pa.participants.map((p) => [p.participant.user_id, p.participant.status])).toEqual([
      [a.id, 'joined'],
      [b.id, 'joined'],
      [c.id, 'joined'],
    ]);
    expect((await service.poll(actor(c), call.id)).peer_answers.map((s) => s.payload)).toEqual(['a→c']);
    await expect(service.poll(actor(d), call.id)).rejects.toThrow(NotFound);
    await service.leave(actor(b), call.id);
    await service.end(actor(c), call.id); // not the initiator: leaves
    expect((await service.poll(actor(a), call.id)).call.status).toBe('active');
    await service.leave(actor(a), call.id);
    expect((await service.poll(actor(a), call.id)).call.status).toBe('ended');
  });

  it('joins the open call of a group instead of starting a second one', async () => {
    const { service, groups, push, a, b } = await setup();
    const gid = await aGroup(groups, a.id, [b.id]);
    const first = await service.initiate(actor(a), { group_id: gid, call_type: 'video', offer: null });
    const second = await service.initiate(actor(b), { group_id: gid, call_type: 'video', offer: null });
    expect(second.call.id).toBe(first.call.id);
    expect(second.call.status).toBe('active');
    expect(push.sent).toHaveLength(1);
  });

  it('lets an invited member decline for themselves while the call goes on', async () => {
    const { service, groups, a, b, c } = await setup();
    const gid = await aGroup(groups, a.id, [b.id, c.id]);
    const { call } = await service.initiate(actor(a), { group_id: gid, call_type: 'audio', offer: null });
    await service.reject(actor(b), call.id);
    const view = await service.poll(actor(a), call.id);
    expect(view.call.status).toBe('ringing');
    expect(view.participants.find((p) => p.participant.user_id === b.id)?.participant.status).toBe('rejected');
  });

  it('ends the group call for everyone when its initiator ends it', async () => {
    const { service, groups, a, b } = await setup();
    const gid = await aGroup(groups, a.id, [b.id]);
    const { call } = await service.initiate(actor(a), { group_id: gid, call_type: 'audio', offer: null });
    await service.join(actor(b), call.id);
    const ended = await service.end(actor(a), call.id);
    expect(ended.call.status).toBe('ended');
    expect(ended.participants.map((p) => p.participant.status)).toEqual(['left', 'left']);
    await expect(service.join(actor(b), call.id)).rejects.toThrow(Conflict);
  });
});

describe('parseLastPoll', () => {
  it('accepts the spec form and ISO, and nothing else', () => {
    expect(parseLastPoll('2026-03-01 10:00:00')).toBe('2026-03-01 10:00:00');
    expect(parseLastPoll('2026-03-01T10:00:00.123Z')).toBe('2026-03-01 10:00:00');
    expect(parseLastPoll('yesterday')).toBeNull();
    expect(parseLastPoll('2026-13-45 10:00:00')).toBeNull();
  });
});

describe('TalkInviteService', () => {
  it('builds the link from the configured conference server and pushes talk_invite to the others', async () => {
    const { users, groups, push, clock, a, b } = await setup();
    const { TalkInviteService } = await import('./talk-invite-service.js');
    const gid = await aGroup(groups, a.id, [b.id]);
    const talk = new TalkInviteService(groups, users, push, clock, { conferenceServerUrl: 'https://cloud.example.org/' });
    const r = await talk.invite(actor(a), { group_id: gid, room_token: 'r00m', call_type: 'audio' });
    expect(r).toMatchObject({ room_url: 'https://cloud.example.org/call/r00m', invited: 1, call_type: 'audio' });
    expect(push.sent.map((p) => [p.userId, p.message.data.type, p.message.data.is_video])).toEqual([[b.id, 'talk_invite', 'false']]);
    expect(groups.messageRows.at(-1)?.content).toContain('https://cloud.example.org/call/r00m');
  });
});
