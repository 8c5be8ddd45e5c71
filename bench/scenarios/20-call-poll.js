// GET calls.php?action=poll&call_id=…&last_poll=…: what each side of a call sends every 2 seconds.
import { createHash } from 'node:crypto';
import { bulkInsert, count, ensureUsers, login } from '../lib.js';

export const name = 'call-poll';

const CANDIDATES = 60;
const NEW_SINCE_LAST_POLL = 5;
const sqlTime = (ms) => new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
const T0 = Date.parse('2026-01-01T10:00:00Z');
const sdp = (who) =>
  `v=0\r\no=${who} 4611731400430051336 2 IN IP4 127.0.0.1\r\ns=-\r\nt=0 0\r\n${'a=candidate:1 1 udp 2122260223 192.0.2.1 54400 typ host\r\n'.repeat(20)}`;
const candidate = (i) =>
  JSON.stringify({ candidate: `candidate:${i} 1 udp 2122260223 192.0.2.${i % 250} ${50000 + i} typ host`, sdpMid: '0', sdpMLineIndex: 0 });

/**
 * The seed: one active call between `me` and `peer` with 60 ICE candidates sent by the peer, one a
 * second, and the poll's `last_poll` 5 seconds before the last one (so each poll returns 5); noise:
 * round(20,000 × scale) other calls between other users with 10 signals each.
 */
export async function seed(ctx) {
  const { pool } = ctx;
  const noiseCalls = Math.max(100, Math.round(20_000 * ctx.scale));
  await ensureUsers(pool, 200);
  const me = await login(ctx.plazaUrl, 'bench_call_me');
  const peer = await login(ctx.plazaUrl, 'bench_call_peer');
  const [others] = await pool.query('SELECT id FROM users WHERE id NOT IN (?, ?) ORDER BY id LIMIT 200', [me.userId, peer.userId]);
  const noise = others.map((u) => Number(u.id));

  let [[call]] = await pool.query('SELECT id FROM calls WHERE caller_id = ? AND recipient_id = ? ORDER BY id LIMIT 1', [
    me.userId,
    peer.userId,
  ]);
  if (!call) {
    await pool.query(
      'INSERT INTO calls (caller_id, recipient_id, group_id, call_type, status, offer_sdp, answer_sdp, created_at, answered_at, ended_at) VALUES (?, ?, NULL, ?, ?, ?, ?, ?, ?, NULL)',
      [me.userId, peer.userId, 'video', 'active', sdp('me'), sdp('peer'), sqlTime(T0), sqlTime(T0 + 3_000)],
    );
    [[call]] = await pool.query('SELECT id FROM calls WHERE caller_id = ? AND recipient_id = ? ORDER BY id LIMIT 1', [
      me.userId,
      peer.userId,
    ]);
    await bulkInsert(
      pool,
      'call_participants',
      ['call_id', 'user_id', 'status', 'joined_at', 'left_at'],
      [
        [call.id, me.userId, 'joined', sqlTime(T0), null],
        [call.id, peer.userId, 'joined', sqlTime(T0 + 3_000), null],
      ],
    );
    const signals = [];
    for (let i = 0; i < CANDIDATES; i++)
      signals.push([call.id, peer.userId, me.userId, 'ice', candidate(i), sqlTime(T0 + 4_000 + i * 1_000)]);
    for (let i = 0; i < 20; i++)
      signals.push([call.id, me.userId, peer.userId, 'ice', candidate(1000 + i), sqlTime(T0 + 4_000 + i * 1_000)]);
    await bulkInsert(pool, 'call_signals', ['call_id', 'from_user_id', 'to_user_id', 'kind', 'payload', 'created_at'], signals);
  }
  // Leave the call active whatever a previous run did.
  await pool.query("UPDATE calls SET status = 'active', ended_at = NULL WHERE id = ?", [call.id]);

  if ((await count(pool, 'calls')) < noiseCalls + 1) {
    const [[{ maxId }]] = await pool.query('SELECT COALESCE(MAX(id), 0) AS maxId FROM calls');
    let id = Number(maxId);
    const calls = [];
    const participants = [];
    const signals = [];
    for (let i = 0; i < noiseCalls; i++) {
      id += 1;
      const a = noise[i % noise.length];
      const b = noise[(i * 7 + 1) % noise.length] === a ? noise[(i + 1) % noise.length] : noise[(i * 7 + 1) % noise.length];
      const at = T0 - (noiseCalls - i) * 60_000;
      calls.push([
        id,
        a,
        b,
        i % 2 ? 'audio' : 'video',
        i % 3 ? 'ended' : 'missed',
        sdp('a'),
        i % 3 ? sdp('b') : null,
        sqlTime(at),
        i % 3 ? sqlTime(at + 2_000) : null,
        sqlTime(at + 45_000),
      ]);
      participants.push([id, a, 'left', sqlTime(at), sqlTime(at + 45_000)], [id, b, i % 3 ? 'left' : 'invited', null, null]);
      for (let k = 0; k < 10; k++) signals.push([id, k % 2 ? a : b, k % 2 ? b : a, 'ice', candidate(k), sqlTime(at + k * 1_000)]);
    }
    await bulkInsert(
      pool,
      'calls',
      ['id', 'caller_id', 'recipient_id', 'call_type', 'status', 'offer_sdp', 'answer_sdp', 'created_at', 'answered_at', 'ended_at'],
      calls,
      1000,
    );
    await bulkInsert(pool, 'call_participants', ['call_id', 'user_id', 'status', 'joined_at', 'left_at'], participants);
    await bulkInsert(pool, 'call_signals', ['call_id', 'from_user_id', 'to_user_id', 'kind', 'payload', 'created_at'], signals);
  }
  const lastPoll = sqlTime(T0 + 4_000 + (CANDIDATES - 1 - NEW_SINCE_LAST_POLL) * 1_000);
  return { me, peer, callId: Number(call.id), lastPoll, tokenHash: createHash('sha256').update(me.token).digest('hex') };
}

export function plaza(ctx) {
  return {
    path: `/api/v1/calls.php?action=poll&call_id=${ctx.callId}&last_poll=${encodeURIComponent(ctx.lastPoll)}`,
    headers: { authorization: `Bearer ${ctx.me.token}`, 'x-flutter-app': 'militant-flutter-v1' },
  };
}

const avatarOf = (u) => u?.avatar ?? 'default.svg';

/**
 * The statements CallService.poll sends, in order (call, participants, which tell whether the viewer takes
 * part, signals, users: docs/decisions/0255), on the bare driver.
 */
export async function floor(ctx) {
  const { pool } = ctx;
  const viewer = ctx.me.userId;
  const upTo = sqlTime(Date.now() - 1_000);
  const [[call]] = await pool.query('SELECT * FROM calls WHERE id = ?', [ctx.callId]);
  const [participants] = await pool.query('SELECT * FROM call_participants WHERE call_id = ? ORDER BY user_id', [call.id]);
  if (!participants.some((p) => Number(p.user_id) === viewer)) throw new Error('not a participant');
  const [signals] = await pool.query(
    'SELECT * FROM call_signals WHERE call_id = ? AND created_at <= ? AND from_user_id <> ? AND (to_user_id IS NULL OR to_user_id = ?) AND created_at > ? ORDER BY created_at, id LIMIT 500',
    [call.id, upTo, viewer, viewer, ctx.lastPoll],
  );
  const [users] = await pool.query('SELECT * FROM users WHERE id IN (?)', [
    [...new Set([call.caller_id, call.recipient_id, ...participants.map((p) => p.user_id)])],
  ]);
  const byId = new Map(users.map((u) => [u.id, u]));
  const caller = byId.get(call.caller_id);
  return {
    success: true,
    data: {
      timestamp: upTo,
      call: {
        id: call.id,
        call_id: String(call.id),
        status: call.status,
        call_type: call.call_type,
        is_group_call: false,
        group_id: null,
        caller_id: call.caller_id,
        caller_username: caller?.username ?? null,
        caller_name: caller?.username ?? null,
        caller_avatar: avatarOf(caller),
        recipient_id: call.recipient_id,
        recipient_username: byId.get(call.recipient_id)?.username ?? null,
        offer_sdp: call.offer_sdp,
        answer_sdp: call.answer_sdp,
        created_at: call.created_at,
        answered_at: call.answered_at,
        ended_at: call.ended_at,
      },
      participants: participants.map((p) => ({
        user_id: p.user_id,
        status: p.status,
        username: byId.get(p.user_id)?.username ?? null,
        avatar: avatarOf(byId.get(p.user_id)),
        joined_at: p.joined_at,
        left_at: p.left_at,
      })),
      ice_candidates: signals
        .filter((s) => s.kind === 'ice')
        .map((s) => ({ id: s.id, user_id: s.from_user_id, candidate: s.payload, created_at: s.created_at })),
      peer_offers: [],
      peer_answers: [],
    },
  };
}
