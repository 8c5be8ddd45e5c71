import { ManualClock } from '@plaza/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aCall, aMessageGroup, aUser, MOBILE_APP, type TestUser } from '../support/mothers.js';
import { startTestServer, type TestServer } from '../support/server.js';

let t: TestServer;
let clock: ManualClock;
let alice: TestUser;
let bob: TestUser;
let eve: TestUser;

beforeAll(async () => {
  clock = new ManualClock('2026-03-01T10:00:00Z');
  t = await startTestServer({ clock });
  [alice, bob, eve] = [await aUser(t.api), await aUser(t.api), await aUser(t.api)];
});
afterAll(() => t.close());

const app = (who: TestUser) => ({ token: who.token, headers: MOBILE_APP });
const post = (who: TestUser, action: string, body: unknown) => t.api.post(`calls.php?action=${action}`, body, app(who));
const poll = (who: TestUser, callId: number | string, lastPoll?: string) =>
  t.api.get(`calls.php?action=poll&call_id=${callId}${lastPoll ? `&last_poll=${encodeURIComponent(lastPoll)}` : ''}`, app(who));
const tick = (ms = 2000) => clock.advance(ms);

describe('calls.php: a one-to-one call end to end', () => {
  it('initiate → ringing with the offer → answer → ICE both ways, each poll only what is new → end', async () => {
    const offer = 'v=0\r\no=alice 1 1 IN IP4 0.0.0.0\r\n';
    const init = await post(alice, 'initiate', { recipient_id: bob.id, call_type: 'video', offer });
    expect(init.status).toBe(200);
    expect(init.body.success).toBe(true);
    const callId = init.body.data.call_id;
    expect(callId).toEqual(expect.stringMatching(/^\d+$/));
    expect(init.body.data.call).toMatchObject({ status: 'ringing', call_type: 'video', caller_id: alice.id, recipient_id: bob.id });
    // The callee is rung by push, with the incoming-call keys.
    expect(t.push.sent.at(-1)).toMatchObject({
      userId: bob.id,
      message: { data: { type: 'call', call_id: callId, caller_id: String(alice.id), is_video: 'true' } },
    });

    // The caller trickles a candidate before the answer.
    const cand = { candidate: 'candidate:1 1 udp 2122260223 192.0.2.1 54400 typ host', sdpMid: '0', sdpMLineIndex: 0 };
    expect((await post(alice, 'ice_candidate', { call_id: callId, candidate: cand })).status).toBe(200);
    tick();

    const ring = await poll(bob, callId);
    expect(ring.status).toBe(200);
    expect(ring.body.data.call).toMatchObject({ call_id: callId, status: 'ringing', offer_sdp: offer, answer_sdp: null });
    expect(ring.body.data.ice_candidates).toHaveLength(1);
    expect(ring.body.data.ice_candidates[0]).toMatchObject({ user_id: alice.id });
    expect(typeof ring.body.data.ice_candidates[0].candidate).toBe('string');
    expect(JSON.parse(ring.body.data.ice_candidates[0].candidate)).toEqual(cand);
    expect(ring.body.data.timestamp).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    let bobCursor = ring.body.data.timestamp;

    const answered = await post(bob, 'answer', { call_id: callId, answer: 'v=0\r\no=bob\r\n' });
    expect(answered.status).toBe(200);
    expect(answered.body.data.call.status).toBe('active');
    await post(bob, 'ice_candidate', {
      call_id: Number(callId),
      candidate: JSON.stringify({ candidate: 'candidate:b1', sdpMid: '0', sdpMLineIndex: 0 }),
    });
    tick();

    const seen = await poll(alice, callId);
    expect(seen.body.data.call).toMatchObject({ status: 'active', answer_sdp: 'v=0\r\no=bob\r\n' });
    expect(seen.body.data.ice_candidates.map((c: { candidate: string }) => JSON.parse(c.candidate).candidate)).toEqual(['candidate:b1']);
    let aliceCursor = seen.body.data.timestamp;

    // Nothing new: empty lists on both sides.
    tick();
    const quietA = await poll(alice, callId, aliceCursor);
    const quietB = await poll(bob, callId, bobCursor);
    expect(quietA.body.data.ice_candidates).toEqual([]);
    expect(quietB.body.data.ice_candidates).toEqual([]);
    aliceCursor = quietA.body.data.timestamp;
    bobCursor = quietB.body.data.timestamp;

    // One more candidate each way: each side gets exactly the new one.
    await post(alice, 'ice_candidate', { call_id: callId, candidate: { candidate: 'candidate:a2', sdpMid: '0', sdpMLineIndex: 0 } });
    await post(bob, 'ice_candidate', { call_id: callId, candidate: { candidate: 'candidate:b2', sdpMid: '0', sdpMLineIndex: 0 } });
    tick();
    const newA = await poll(alice, callId, aliceCursor);
    const newB = await poll(bob, callId, bobCursor);
    expect(newA.body.data.ice_candidates.map((c: { candidate: string }) => JSON.parse(c.candidate).candidate)).toEqual(['candidate:b2']);
    expect(newB.body.data.ice_candidates.map((c: { candidate: string }) => JSON.parse(c.candidate).candidate)).toEqual(['candidate:a2']);

    const ended = await post(alice, 'end', { call_id: callId });
    expect(ended.status).toBe(200);
    expect(ended.body.data.status).toBe('ended');
    expect((await poll(bob, callId, newB.body.data.timestamp)).body.data.call.status).toBe('ended');
    const late = await post(bob, 'ice_candidate', { call_id: callId, candidate: { candidate: 'late' } });
    expect(late.status).toBe(409);
    expect(late.body.code).toBe('call_ended');

    const history = await t.api.get('calls.php?action=history&page=1', app(bob));
    expect(history.status).toBe(200);
    expect(history.body.data.data[0]).toMatchObject({
      call_id: callId,
      direction: 'incoming',
      status: 'ended',
      caller_id: alice.id,
      caller_username: alice.username,
      call_type: 'video',
      is_group_call: false,
      duration: expect.any(Number),
    });
    expect((await t.api.get('calls.php?action=history', app(alice))).body.data.data[0]).toMatchObject({
      call_id: callId,
      direction: 'outgoing',
    });
  });

  it('shows a third user nothing and lets them do nothing (404), and changes nothing', async () => {
    const { id } = await aCall(t.api, alice, { recipient_id: bob.id });
    expect((await poll(eve, id)).status).toBe(404);
    for (const [action, body] of [
      ['answer', { call_id: id, answer: 'x' }],
      ['reject', { call_id: id }],
      ['end', { call_id: id }],
      ['leave', { call_id: id }],
      ['ice_candidate', { call_id: id, candidate: { candidate: 'x' } }],
      ['ice_restart', { call_id: id, offer: 'x' }],
    ] as const) {
      const res = await post(eve, action, body);
      expect(res.status, action).toBe(404);
      expect(res.body).toMatchObject({ success: false, code: 'call_not_found' });
    }
    expect((await poll(bob, id)).body.data.call.status).toBe('ringing');
    expect((await t.api.get('calls.php?action=history', app(eve))).body.data.data).toEqual([]);
  });

  it('lets only the callee answer', async () => {
    const { id } = await aCall(t.api, alice, { recipient_id: bob.id });
    const res = await post(alice, 'answer', { call_id: id, answer: 'self' });
    expect(res.status).toBe(403);
    expect((await poll(bob, id)).body.data.call.status).toBe('ringing');
  });

  it('rejects once, and a rejected call can no longer be answered (409)', async () => {
    const { id } = await aCall(t.api, alice, { recipient_id: bob.id });
    // The Android decline button sends no app header (contract §34).
    const rejected = await t.api.post('calls.php?action=reject', { call_id: String(id) }, { token: bob.token });
    expect(rejected.status).toBe(200);
    expect(rejected.body.data.status).toBe('rejected');
    expect((await post(bob, 'reject', { call_id: id })).status).toBe(200);
    const late = await post(bob, 'answer', { call_id: id, answer: 'late' });
    expect(late.status).toBe(409);
    expect(late.body.code).toBe('call_rejected');
  });

  it('turns a call unanswered for 45 seconds into a missed call', async () => {
    const { id } = await aCall(t.api, alice, { recipient_id: bob.id });
    tick(44_000);
    expect((await poll(alice, id)).body.data.call.status).toBe('ringing');
    tick(1_000);
    await t.runJob('missed-calls');
    const h = await t.api.get('calls.php?action=history&per_page=1', app(bob));
    expect(h.body.data.data[0]).toMatchObject({ call_id: String(id), status: 'missed', direction: 'incoming', offer_sdp: null });
    expect((await post(bob, 'answer', { call_id: id, answer: 'late' })).status).toBe(409);
  });

  it('restarts ICE: a new offer for the callee, answered again', async () => {
    const { id } = await aCall(t.api, alice, { recipient_id: bob.id });
    await post(bob, 'answer', { call_id: id, answer: 'answer 1' });
    const restart = await post(alice, 'ice_restart', { call_id: id, offer: 'offer 2' });
    expect(restart.status).toBe(200);
    expect(restart.body.data.call).toMatchObject({ offer_sdp: 'offer 2', answer_sdp: null, status: 'active' });
    await post(bob, 'answer', { call_id: id, answer: 'answer 2' });
    expect((await poll(alice, id)).body.data.call).toMatchObject({ offer_sdp: 'offer 2', answer_sdp: 'answer 2' });
  });
});

describe('calls.php: refusals', () => {
  it('answers 403 without the mobile-app marker header, and accepts X-Mobile-App too', async () => {
    const body = { recipient_id: bob.id, call_type: 'audio', offer: 'v=0' };
    const without = await t.api.post('calls.php?action=initiate', body, { token: alice.token });
    expect(without.status).toBe(403);
    expect(without.body).toMatchObject({ success: false, code: 'mobile_app_required' });
    const wrong = await t.api.post('calls.php?action=initiate', body, {
      token: alice.token,
      headers: { 'X-Flutter-App': 'some-other-app' },
    });
    expect(wrong.status).toBe(403);
    const before = (await t.api.get('calls.php?action=history&per_page=100', app(bob))).body.data.meta.total;
    const viaMobile = await t.api.post('calls.php?action=initiate', body, {
      token: alice.token,
      headers: { 'X-Mobile-App': 'militant-flutter-v1' },
    });
    expect(viaMobile.status).toBe(200);
    expect((await t.api.get('calls.php?action=history&per_page=100', app(bob))).body.data.meta.total).toBe(before + 1);
    expect((await t.api.get(`calls.php?action=poll&call_id=${viaMobile.body.data.call_id}`, { token: bob.token })).status).toBe(403);
  });

  it('answers 401 without a bearer token, even with the header', async () => {
    const res = await t.api.post(
      'calls.php?action=initiate',
      { recipient_id: bob.id, call_type: 'audio', offer: 'v=0' },
      { headers: MOBILE_APP },
    );
    expect(res.status).toBe(401);
    expect((await t.api.get('calls.php?action=poll&call_id=1', { headers: MOBILE_APP })).status).toBe(401);
  });

  it('refuses invalid input with a 400 naming the field, and starts no call', async () => {
    const before = (await t.api.get('calls.php?action=history&per_page=100', app(alice))).body.data.meta.total;
    const cases: [unknown, string][] = [
      [{ call_type: 'audio', offer: 'v=0' }, 'recipient_id'],
      [{ recipient_id: bob.id, group_id: 1, call_type: 'audio', offer: 'v=0' }, 'recipient_id'],
      [{ recipient_id: bob.id, call_type: 'hologram', offer: 'v=0' }, 'call_type'],
      [{ recipient_id: bob.id, call_type: 'audio' }, 'offer'],
      [{ recipient_id: 'abc', call_type: 'audio', offer: 'v=0' }, 'recipient_id'],
      [{ recipient_id: alice.id, call_type: 'audio', offer: 'v=0' }, 'recipient_id'],
    ];
    for (const [body, field] of cases) {
      const res = await post(alice, 'initiate', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.details?.[0]?.field, JSON.stringify(res.body)).toBe(field);
    }
    expect((await post(alice, 'initiate', { recipient_id: 9_999_999, call_type: 'audio', offer: 'v=0' })).status).toBe(404);
    expect((await t.api.get('calls.php?action=history&per_page=100', app(alice))).body.data.meta.total).toBe(before);
    const { id } = await aCall(t.api, alice, { recipient_id: bob.id });
    const badPoll = await poll(bob, id, 'last tuesday');
    expect(badPoll.status).toBe(400);
    expect(badPoll.body.details[0].field).toBe('last_poll');
    const badCandidate = await post(bob, 'ice_candidate', { call_id: id, candidate: { sdpMid: '0' } });
    expect(badCandidate.status).toBe(400);
    expect((await poll(alice, id)).body.data.ice_candidates).toEqual([]);
  });
});

describe('calls.php: group calls', () => {
  it('rings a group of three, lets them join, relays peer offers and answers, and ends when the last leaves', async () => {
    const carol = await aUser(t.api);
    const group = await aMessageGroup(t.api, alice, [bob, carol]);
    const outsider = await post(eve, 'initiate', { group_id: group.id, call_type: 'audio', offer: 'v=0\r\n' });
    expect(outsider.status).toBe(403);
    const pushedBefore = t.push.sent.length;
    const init = await post(alice, 'initiate', { group_id: group.id, call_type: 'video', offer: 'v=0\r\n' });
    expect(init.status).toBe(200);
    const callId = init.body.data.call_id;
    expect(init.body.data.call).toMatchObject({ is_group_call: true, group_id: group.id, status: 'ringing' });
    expect(t.push.sent.slice(pushedBefore).map((p) => [p.userId, p.message.data.is_group_call, p.message.data.group_name])).toEqual([
      [bob.id, 'true', 'Comrades'],
      [carol.id, 'true', 'Comrades'],
    ]);

    const bobJoin = await post(bob, 'join', { call_id: callId });
    expect(bobJoin.body.data.other_participants).toEqual([alice.id]);
    expect(bobJoin.body.data.status).toBe('active');
    const carolJoin = await post(carol, 'join', { call_id: callId });
    expect(carolJoin.body.data.other_participants.sort()).toEqual([alice.id, bob.id].sort());

    // Mesh signalling: carol offers to alice and bob; they answer her.
    for (const peer of [alice, bob])
      expect((await post(carol, 'peer_offer', { call_id: callId, to_user_id: peer.id, offer: `carol→${peer.id}` })).status).toBe(200);
    await post(alice, 'peer_answer', { call_id: callId, to_user_id: carol.id, answer: 'alice→carol' });
    await post(bob, 'peer_answer', { call_id: callId, to_user_id: carol.id, answer_sdp: 'bob→carol' });
    expect((await post(alice, 'peer_offer', { call_id: callId, to_user_id: eve.id, offer: 'x' })).status).toBe(400);
    tick();

    const a = await poll(alice, callId);
    expect(a.body.data.peer_offers).toEqual([expect.objectContaining({ from_user_id: carol.id, offer_sdp: `carol→${alice.id}` })]);
    expect(a.body.data.participants).toEqual(
      [alice, bob, carol].map((u) => expect.objectContaining({ user_id: u.id, status: 'joined', username: u.username })),
    );
    const c = await poll(carol, callId);
    expect(c.body.data.peer_answers.map((x: { answer_sdp: string }) => x.answer_sdp).sort()).toEqual(['alice→carol', 'bob→carol']);
    expect((await poll(eve, callId)).status).toBe(404);

    expect((await post(bob, 'leave', { call_id: callId })).body.data.status).toBe('active');
    expect((await post(carol, 'end', { call_id: callId })).body.data.status).toBe('active');
    expect((await post(alice, 'leave', { call_id: callId })).body.data.status).toBe('ended');
    expect((await poll(carol, callId)).body.data.call.status).toBe('ended');
  });
});

describe('calls.php: concurrent requests', () => {
  it('20 identical answers at once leave one active call answered once', async () => {
    const { id } = await aCall(t.api, alice, { recipient_id: bob.id });
    const results = await Promise.all(Array.from({ length: 20 }, () => post(bob, 'answer', { call_id: id, answer: 'same answer' })));
    expect(results.map((r) => r.status)).toEqual(Array(20).fill(200));
    const call = (await poll(alice, id)).body.data;
    expect(call.call).toMatchObject({ status: 'active', answer_sdp: 'same answer' });
    expect(call.participants.filter((p: { status: string }) => p.status === 'joined')).toHaveLength(2);
  });

  it('20 identical group-call starts at once make one call', async () => {
    const group = await aMessageGroup(t.api, alice, [bob]);
    const pushedBefore = t.push.sent.length;
    const results = await Promise.all(
      Array.from({ length: 20 }, () => post(alice, 'initiate', { group_id: group.id, call_type: 'audio', offer: 'v=0\r\n' })),
    );
    expect(results.map((r) => r.status)).toEqual(Array(20).fill(200));
    expect(new Set(results.map((r) => r.body.data.call_id)).size).toBe(1);
    expect(t.push.sent.slice(pushedBefore).filter((p) => p.message.data.type === 'call')).toHaveLength(1);
  });

  it('20 candidates sent while the callee polls reach it exactly once each, none a poll late (the clock never moves)', async () => {
    const { id } = await aCall(t.api, alice, { recipient_id: bob.id });
    await post(bob, 'answer', { call_id: id, answer: 'a' });
    const seen: string[] = [];
    let cursor: string | undefined;
    const drain = async () => {
      const r = await poll(bob, id, cursor);
      expect(r.status).toBe(200);
      cursor = r.body.data.timestamp;
      for (const c of r.body.data.ice_candidates) seen.push(JSON.parse(c.candidate).candidate);
    };
    const sends = Array.from({ length: 20 }, (_, i) =>
      post(alice, 'ice_candidate', { call_id: id, candidate: { candidate: `c${i}`, sdpMid: '0', sdpMLineIndex: 0 } }),
    );
    // Polls race the sends; whatever each one sees, the union must be every candidate once.
    await Promise.all([...sends, drain().then(drain).then(drain)]);
    expect((await Promise.all(sends)).map((r) => r.status)).toEqual(Array(20).fill(200));
    // A candidate sent before a poll is in that poll, within the same second.
    await drain();
    expect([...seen].sort()).toEqual(Array.from({ length: 20 }, (_, i) => `c${i}`).sort());
    await post(alice, 'ice_candidate', { call_id: id, candidate: { candidate: 'late', sdpMid: '0', sdpMLineIndex: 0 } });
    await drain();
    expect(seen.at(-1)).toBe('late');
    expect(seen).toHaveLength(21);
  });

  it('20 identical ends at once end the call once', async () => {
    const { id } = await aCall(t.api, alice, { recipient_id: bob.id });
    await post(bob, 'answer', { call_id: id, answer: 'a' });
    const results = await Promise.all(Array.from({ length: 20 }, () => post(alice, 'end', { call_id: id })));
    expect(results.map((r) => r.status)).toEqual(Array(20).fill(200));
    expect(new Set(results.map((r) => r.body.data.call.ended_at)).size).toBe(1);
  });
});

describe('calls.php?action=initiate_talk', () => {
  it("posts the conference link in the group's chat, pushes talk_invite to the other members, and refuses outsiders", async () => {
    const carol = await aUser(t.api);
    const group = await aMessageGroup(t.api, alice, [bob, carol], { name: 'Assemblée' });
    const pushedBefore = t.push.sent.length;
    const res = await post(alice, 'initiate_talk', {
      group_id: group.id,
      room_token: 'abc123xy',
      call_type: 'video',
      room_url: 'https://talk.example.org/call/abc123xy',
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      group_id: group.id,
      group_name: 'Assemblée',
      room_token: 'abc123xy',
      room_url: 'https://talk.example.org/call/abc123xy',
      call_type: 'video',
      invited: 2,
    });
    const pushes = t.push.sent.slice(pushedBefore);
    expect(
      pushes.map((p) => [p.userId, p.message.data.type, p.message.data.room_token, p.message.data.group_name, p.message.data.is_video]),
    ).toEqual([
      [bob.id, 'talk_invite', 'abc123xy', 'Assemblée', 'true'],
      [carol.id, 'talk_invite', 'abc123xy', 'Assemblée', 'true'],
    ]);
    const chat = await t.api.get(`message_groups.php?path=${group.id}/messages`, { token: bob.token });
    expect(chat.body.messages.at(-1)).toMatchObject({ content: expect.stringContaining('https://talk.example.org/call/abc123xy') });

    expect(
      (await post(eve, 'initiate_talk', { group_id: group.id, room_token: 'abc123xy', room_url: 'https://talk.example.org/call/abc123xy' }))
        .status,
    ).toBe(403);
    const noUrl = await post(alice, 'initiate_talk', { group_id: group.id, room_token: 'abc123xy' });
    expect(noUrl.status).toBe(400);
    expect(noUrl.body.details[0].field).toBe('room_url');
    expect((await post(alice, 'initiate_talk', { group_id: group.id, room_token: 'abc', room_url: 'javascript:alert(1)' })).status).toBe(
      400,
    );
    expect(
      (await post(alice, 'initiate_talk', { group_id: group.id, room_token: '../x', room_url: 'https://talk.example.org/x' })).status,
    ).toBe(400);
    expect(
      (
        await t.api.post(
          'calls.php?action=initiate_talk',
          { group_id: group.id, room_token: 'abc', room_url: 'https://t.example/x' },
          { token: alice.token },
        )
      ).status,
    ).toBe(403);
  });
});
