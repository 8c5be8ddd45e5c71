import { createHash } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ManualClock } from '@plaza/domain';
import { jwtVerify, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aLive, aUser, type TestUser } from '../support/mothers.js';
import { startTestServer, type TestServer } from '../support/server.js';

const MEDIA = { url: 'wss://media.plaza.test', key: 'APIplazaKey', secret: 'plaza-media-secret-at-least-32-bytes' };
let t: TestServer;
let clock: ManualClock;
let ada: TestUser;
let bob: TestUser;
let cy: TestUser;

beforeAll(async () => {
  clock = new ManualClock('2026-03-01T10:00:00Z');
  t = await startTestServer({
    clock,
    env: {
      MEDIA_SERVER_URL: MEDIA.url,
      MEDIA_SERVER_API_KEY: MEDIA.key,
      MEDIA_SERVER_API_SECRET: MEDIA.secret,
      MEDIA_TECHNICIAN_USER_IDS: '',
      LIVE_REPORT_SUSPEND_THRESHOLD: '2',
    },
  });
  [ada, bob, cy] = [await aUser(t.api), await aUser(t.api), await aUser(t.api)];
});
afterAll(() => t.close());

const as = (u: TestUser) => ({ token: u.token });
const identity = (u: TestUser) => `u${u.id}-${u.username.toLowerCase()}`;
const tokenFor = (u: TestUser, body: Record<string, unknown>) => t.api.post('lives.php?path=token', body, as(u));

async function claims(token: string) {
  return (
    await jwtVerify(token, new TextEncoder().encode(MEDIA.secret), { algorithms: ['HS256'], issuer: MEDIA.key, currentDate: clock.now() })
  ).payload;
}

/** What LiveKit posts: the body, and a JWT signed with the API secret carrying the body's SHA-256. */
async function webhook(event: Record<string, unknown>, options: { secret?: string; tamper?: boolean } = {}) {
  const body = JSON.stringify({ id: 'EV_1', createdAt: '1772359200', ...event });
  const jwt = await new SignJWT({ sha256: createHash('sha256').update(body).digest('base64') })
    .setProtectedHeader({ alg: 'HS256' })
    .setIssuer(MEDIA.key)
    .setIssuedAt(Math.floor(clock.now().getTime() / 1000))
    .setExpirationTime(Math.floor(clock.now().getTime() / 1000) + 300)
    .sign(new TextEncoder().encode(options.secret ?? MEDIA.secret));
  const sent = options.tamper ? body.replace('live-', 'live-9') : body;
  return t.api.request('POST', 'lives.php?path=webhook', undefined, {
    raw: sent,
    headers: { 'Content-Type': 'application/webhook+json', Authorization: jwt },
  });
}

describe('lives.php: starting, listing, ending', () => {
  it('starts a live answering live_id, lists it, shows its details, and ends the earlier live of the same user', async () => {
    const first = await aLive(t.api, ada, { title: 'First' });
    const res = await t.api.post('lives.php', { title: 'Second', description: 'hello', is_public: true, max_guests: 4 }, as(ada));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, live_id: expect.any(Number) });
    const second = res.body.live_id;
    const old = await t.api.get(`lives.php?path=${first.id}`, as(bob));
    expect(old.body.live).toMatchObject({ id: first.id, status: 'ended' });
    const list = await t.api.get('lives.php', as(bob));
    expect(list.status).toBe(200);
    const mine = list.body.lives.filter((l: { user_id: number }) => l.user_id === ada.id);
    expect(mine.map((l: { id: number }) => l.id)).toEqual([second]);
    expect(mine[0]).toMatchObject({
      title: 'Second',
      username: ada.username,
      current_viewers: 0,
      report_count: 0,
      is_suspended: false,
      background_image: null,
      room_name: `live-${second}`,
    });
    const detail = await t.api.get(`lives.php?path=${second}`, as(bob));
    expect(detail.body.live).toMatchObject({
      id: second,
      title: 'Second',
      description: 'hello',
      max_guests: 4,
      background_image: null,
      status: 'active',
    });
  });

  it('keeps unlisted lives out of the list for others', async () => {
    const { id } = await aLive(t.api, cy, { is_public: false });
    const ids = (r: { body: { lives: { id: number }[] } }) => r.body.lives.map((l) => l.id);
    expect(ids(await t.api.get('lives.php?per_page=100', as(bob)))).not.toContain(id);
    expect(ids(await t.api.get('lives.php?per_page=100', as(cy)))).toContain(id);
    expect((await t.api.get(`lives.php?path=${id}`, as(bob))).status).toBe(200);
  });

  it('refuses bad starts with a 400 and starts nothing', async () => {
    const before = (await t.api.get('lives.php?per_page=100', as(bob))).body.meta.total;
    for (const [body, field] of [
      [{ title: '  ' }, 'title'],
      [{}, 'title'],
      [{ title: 'x', max_guests: 99 }, 'max_guests'],
      [{ title: 'x'.repeat(201) }, 'title'],
    ] as const) {
      const res = await t.api.post('lives.php', body, as(bob));
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.details[0].field).toBe(field);
    }
    expect((await t.api.get('lives.php?per_page=100', as(bob))).body.meta.total).toBe(before);
  });

  it('ends by POST {action: "end"}, and by the deprecated PUT with a Deprecation header; only the creator', async () => {
    const a = await aLive(t.api, bob);
    expect((await t.api.post(`lives.php?path=${a.id}/end`, { action: 'end' }, as(cy))).status).toBe(403);
    const ended = await t.api.post(`lives.php?path=${a.id}/end`, { action: 'end' }, as(bob));
    expect(ended.status).toBe(200);
    expect(ended.body).toMatchObject({ success: true, live_id: a.id, status: 'ended' });
    expect(ended.headers.get('deprecation')).toBeNull();
    const b = await aLive(t.api, bob);
    const put = await t.api.put(`lives.php?path=${b.id}/end`, undefined, as(bob));
    expect(put.status).toBe(200);
    expect(put.headers.get('deprecation')).toBe('true');
    expect((await t.api.get(`lives.php?path=${b.id}`, as(bob))).body.live.status).toBe('ended');
    expect((await t.api.post('lives.php?path=999999/end', { action: 'end' }, as(bob))).status).toBe(404);
  });

  it('counts viewers from their join pings, for 90 seconds after the last one', async () => {
    const { id } = await aLive(t.api, ada);
    expect((await t.api.post(`lives.php?path=${id}/join`, {}, as(bob))).body).toMatchObject({ success: true, current_viewers: 1 });
    await t.api.post(`lives.php?path=${id}/join`, {}, as(cy));
    await t.api.post(`lives.php?path=${id}/join`, {}, as(ada)); // the creator is no viewer
    expect((await t.api.get(`lives.php?path=${id}`, as(ada))).body.live.current_viewers).toBe(2);
    clock.advance(60_000);
    await t.api.post(`lives.php?path=${id}/join`, {}, as(bob));
    clock.advance(60_000);
    expect((await t.api.get(`lives.php?path=${id}`, as(ada))).body.live.current_viewers).toBe(1);
  });

  it('20 identical starts at once leave the user exactly one active live', async () => {
    const dee = await aUser(t.api);
    const results = await Promise.all(Array.from({ length: 20 }, () => t.api.post('lives.php', { title: 'Race' }, as(dee))));
    expect(results.map((r) => r.status)).toEqual(Array(20).fill(200));
    const active = (await t.api.get('lives.php?per_page=100', as(dee))).body.lives.filter((l: { user_id: number }) => l.user_id === dee.id);
    expect(active).toHaveLength(1);
  });
});

describe('lives.php?path=token', () => {
  it('signs a LiveKit token for the creator that can publish; claims verified with jose', async () => {
    const { id } = await aLive(t.api, ada);
    const res = await tokenFor(ada, {
      roomName: `live-${id}`,
      identity: identity(ada),
      name: 'Ada',
      canPublish: true,
      canPublishData: true,
      canSubscribe: true,
      liveId: id,
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, url: MEDIA.url, expires_in: 21600 });
    const c = await claims(res.body.token);
    const now = Math.floor(clock.now().getTime() / 1000);
    expect(c).toMatchObject({ iss: MEDIA.key, sub: identity(ada), name: 'Ada', nbf: now, exp: now + 21600 });
    expect(c.video).toEqual({ room: `live-${id}`, roomJoin: true, canPublish: true, canPublishData: true, canSubscribe: true });
  });

  it('grants a viewer no publishing, an approved guest publishing', async () => {
    const { id } = await aLive(t.api, ada);
    const ask = { roomName: `live-${id}`, identity: identity(bob), name: 'Bob', canPublish: true };
    expect((await claims((await tokenFor(bob, ask)).body.token)).video).toMatchObject({ canPublish: false, canSubscribe: true });
    const request = await t.api.post(`lives.php?path=${id}/request-guest`, { message: 'me!' }, as(bob));
    expect(request.body).toMatchObject({ success: true, status: 'pending' });
    expect((await t.api.put(`lives.php?path=${id}/guests/${bob.id}/approve`, {}, as(cy))).status).toBe(403);
    expect((await t.api.put(`lives.php?path=${id}/guests/${bob.id}/approve`, {}, as(ada))).status).toBe(200);
    const guests = await t.api.get(`lives.php?path=${id}/guests`, as(cy));
    expect(guests.body.guests).toEqual([expect.objectContaining({ user_id: bob.id, username: bob.username, status: 'approved' })]);
    expect((await claims((await tokenFor(bob, ask)).body.token)).video).toMatchObject({ canPublish: true });
    await t.api.put(`lives.php?path=${id}/guests/${bob.id}/reject`, {}, as(ada));
    expect((await claims((await tokenFor(bob, ask)).body.token)).video).toMatchObject({ canPublish: false });
  });

  it('names the missing field with a 400, and refuses without a bearer (401)', async () => {
    const full = { roomName: 'test-room', identity: identity(ada), name: 'Ada' };
    for (const field of ['roomName', 'identity', 'name'] as const) {
      const { [field]: _dropped, ...rest } = full;
      const res = await tokenFor(ada, rest);
      expect(res.status, field).toBe(400);
      expect(res.body.details[0].field).toBe(field);
    }
    expect((await t.api.post('lives.php?path=token', full)).status).toBe(401);
  });

  it("refuses someone else's identity, test rooms to non-technicians, and unknown rooms", async () => {
    const { id } = await aLive(t.api, ada);
    expect((await tokenFor(bob, { roomName: `live-${id}`, identity: identity(ada), name: 'Ada' })).status).toBe(403);
    expect((await tokenFor(bob, { roomName: 'test-lab', identity: identity(bob), name: 'Bob', canPublish: true })).status).toBe(403);
    expect((await tokenFor(bob, { roomName: 'lobby', identity: identity(bob), name: 'Bob' })).status).toBe(400);
    expect((await tokenFor(bob, { roomName: 'live-999999', identity: identity(bob), name: 'Bob' })).status).toBe(404);
  });

  it('answers 503 when no media server is configured', async () => {
    const bare = await startTestServer({
      env: {
        MEDIA_SERVER_URL: '',
        MEDIA_SERVER_API_KEY: '',
        MEDIA_SERVER_API_SECRET: '',
        API_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'plaza-noconf-')),
      },
    });
    try {
      const u = await aUser(bare.api);
      const res = await bare.api.post(
        'lives.php?path=token',
        { roomName: 'live-1', identity: `u${u.id}-x`, name: 'X' },
        { token: u.token },
      );
      expect(res.status).toBe(503);
      expect(res.body.code).toBe('media_server_unavailable');
    } finally {
      await bare.close();
    }
  });
});

describe('lives.php?path=webhook (LiveKit events)', () => {
  it('ends a live whose room finished when the event is signed, and refuses a forged one', async () => {
    const { id } = await aLive(t.api, cy);
    const forged = await webhook({ event: 'room_finished', room: { name: `live-${id}` } }, { secret: 'not-the-secret-not-the-secret-xx' });
    expect(forged.status).toBe(401);
    expect((await webhook({ event: 'room_finished', room: { name: `live-${id}` } }, { tamper: true })).status).toBe(401);
    const unsigned = await t.api.request('POST', 'lives.php?path=webhook', undefined, {
      raw: JSON.stringify({ event: 'room_finished', room: { name: `live-${id}` } }),
      headers: { 'Content-Type': 'application/webhook+json' },
    });
    expect(unsigned.status).toBe(401);
    expect((await t.api.get(`lives.php?path=${id}`, as(cy))).body.live.status).toBe('active');
    const signed = await webhook({ event: 'room_finished', room: { name: `live-${id}` } });
    expect(signed.status).toBe(200);
    expect(signed.body).toEqual({ success: true, event: 'room_finished', handled: true });
    expect((await t.api.get(`lives.php?path=${id}`, as(cy))).body.live.status).toBe('ended');
  });

  it('keeps current_viewers exact from participant_joined and participant_left', async () => {
    const { id } = await aLive(t.api, cy);
    await webhook({ event: 'participant_joined', room: { name: `live-${id}` }, participant: { identity: identity(ada) } });
    await webhook({ event: 'participant_joined', room: { name: `live-${id}` }, participant: { identity: identity(bob) } });
    await webhook({ event: 'participant_joined', room: { name: `live-${id}` }, participant: { identity: identity(cy) } });
    expect((await t.api.get(`lives.php?path=${id}`, as(cy))).body.live.current_viewers).toBe(2);
    await webhook({ event: 'participant_left', room: { name: `live-${id}` }, participant: { identity: identity(bob) } });
    clock.advance(10 * 60_000); // no pings: presence comes from the room alone
    expect((await t.api.get(`lives.php?path=${id}`, as(cy))).body.live.current_viewers).toBe(1);
    const other = await webhook({ event: 'track_published', room: { name: 'group-call-3' } });
    expect(other.body).toMatchObject({ success: true, handled: false });
  });
});
