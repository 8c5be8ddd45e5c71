import { ManualClock } from '@plaza/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loopbackProvider, type RecordedRequest } from '../support/loopback-provider.js';
import { aMessage, aUser, MOBILE_APP, type TestUser } from '../support/mothers.js';
import { startTestServer, type TestServer } from '../support/server.js';

/**
 * Push delivery through the real providers, with loopback servers standing in for OneSignal and ntfy:
 * what leaves for each kind of push, a provider failure queued and retried by the job, and the test
 * push of notifications.php.
 */
let t: TestServer;
let clock: ManualClock;
let ntfyDown = false;
let oneSignal: Awaited<ReturnType<typeof loopbackProvider>>;
let ntfy: Awaited<ReturnType<typeof loopbackProvider>>;
let ada: TestUser;
let bob: TestUser;

beforeAll(async () => {
  oneSignal = await loopbackProvider(() => ({ status: 200, body: { id: 'n1' } }));
  ntfy = await loopbackProvider(() => (ntfyDown ? { status: 502, body: { error: 'bad gateway' } } : { status: 200, body: { id: 'm1' } }));
  clock = new ManualClock('2026-03-01T10:00:00Z');
  t = await startTestServer({
    clock,
    realPush: true,
    env: {
      PUSH_APP_ID: 'app-1',
      PUSH_REST_API_KEY: 'rest-key',
      ONESIGNAL_API_URL: oneSignal.url,
      NTFY_SERVER: ntfy.url,
      NTFY_TOPIC_PREFIX: 'militant_u_',
    },
  });
  [ada, bob] = [await aUser(t.api), await aUser(t.api)];
});
afterAll(async () => {
  await t.close();
  await oneSignal.close();
  await ntfy.close();
});

const to = (requests: RecordedRequest[], userId: number) =>
  requests.filter((r) => r.body?.include_aliases?.external_id?.[0] === `u_${userId}` || r.body?.topic === `militant_u_${userId}`);

describe('push providers', () => {
  it('sends a private-message push to both providers with the keys of contract §33.2', async () => {
    await aMessage(t.api, ada, bob, { content: 'salut Bob' });
    const [os] = to(oneSignal.requests, bob.id);
    expect(os.headers.authorization).toBe('Key rest-key');
    expect(os.body).toMatchObject({
      app_id: 'app-1',
      include_aliases: { external_id: [`u_${bob.id}`] },
      data: { type: 'message', sender_id: String(ada.id), message_preview: 'salut Bob' },
    });
    const [nt] = to(ntfy.requests, bob.id);
    expect(nt.body).toMatchObject({
      topic: `militant_u_${bob.id}`,
      actions: [{ extras: { type: 'message', sender_id: String(ada.id), message_preview: 'salut Bob' } }],
    });
  });

  it('sends an incoming-call push with the keys of contract §33.1, urgent on both', async () => {
    const carol = await aUser(t.api);
    const res = await t.api.post(
      'calls.php?action=initiate',
      { recipient_id: carol.id, call_type: 'video', offer: 'v=0' },
      { token: ada.token, headers: MOBILE_APP },
    );
    const callId = res.body.data.call_id;
    const [os] = to(oneSignal.requests, carol.id);
    expect(os.body).toMatchObject({
      priority: 10,
      data: {
        type: 'call',
        call_id: callId,
        caller_id: String(ada.id),
        caller_name: ada.username,
        is_video: 'true',
        call_type: 'video',
        offer_sdp: 'v=0',
      },
    });
    const [nt] = to(ntfy.requests, carol.id);
    expect(nt.body).toMatchObject({ priority: 5, actions: [{ extras: { type: 'call', call_id: callId } }] });
  });

  it('never fails the request when a provider fails: the push is queued and the job delivers it later', async () => {
    const dan = await aUser(t.api);
    ntfyDown = true;
    const sent = await t.api.post('messages.php', { user_id: dan.id, content: 'are you there?' }, { token: ada.token });
    expect(sent.status).toBe(200);
    expect(to(oneSignal.requests, dan.id)).toHaveLength(1);
    expect(to(ntfy.requests, dan.id)).toHaveLength(1); // tried once, refused
    const queued = await t.database.db
      .selectFrom('push_outbox' as never)
      .selectAll()
      .execute();
    expect(queued).toEqual([expect.objectContaining({ user_id: dan.id, provider: 'ntfy', attempts: 1 })]);

    await t.runJob('push-retry'); // not due yet
    expect(to(ntfy.requests, dan.id)).toHaveLength(1);
    clock.advance(31_000);
    await t.runJob('push-retry'); // due, still failing: rescheduled
    expect(to(ntfy.requests, dan.id)).toHaveLength(2);
    ntfyDown = false;
    clock.advance(61_000);
    await t.runJob('push-retry');
    const delivered = to(ntfy.requests, dan.id);
    expect(delivered).toHaveLength(3);
    expect(delivered[2].body).toMatchObject({ actions: [{ extras: { type: 'message', message_preview: 'are you there?' } }] });
    expect(
      await t.database.db
        .selectFrom('push_outbox' as never)
        .selectAll()
        .execute(),
    ).toEqual([]);
    // The provider that worked was not asked again.
    expect(to(oneSignal.requests, dan.id)).toHaveLength(1);
  });

  it('sends the test push through the provider asked for', async () => {
    const eve = await aUser(t.api);
    for (const [provider, os, nt] of [
      ['ntfy', 0, 1],
      ['onesignal', 1, 1],
      ['both', 2, 2],
    ] as const) {
      const res = await t.api.post('notifications.php?action=test', { provider }, { token: eve.token });
      expect(res.status).toBe(200);
      expect([to(oneSignal.requests, eve.id).length, to(ntfy.requests, eve.id).length], provider).toEqual([os, nt]);
    }
    expect(to(ntfy.requests, eve.id)[0].body).toMatchObject({ title: 'Plaza', actions: [{ extras: { type: 'test' } }] });
  });
});

describe('push providers: the recipient switches', () => {
  it('honours notifications_push: a message push leaves no more once it is off, a call still rings', async () => {
    const fay = await aUser(t.api);
    expect((await t.api.put('user_preferences.php', { notifications_push: false }, { token: fay.token })).status).toBe(200);
    await aMessage(t.api, ada, fay, { content: 'hidden' });
    expect([to(oneSignal.requests, fay.id).length, to(ntfy.requests, fay.id).length]).toEqual([0, 0]);
    await t.api.post(
      'calls.php?action=initiate',
      { recipient_id: fay.id, call_type: 'audio', offer: 'v=0' },
      { token: ada.token, headers: MOBILE_APP },
    );
    expect([to(oneSignal.requests, fay.id).length, to(ntfy.requests, fay.id).length]).toEqual([1, 1]);
  });
});

describe('push providers: only one configured', () => {
  it('refuses a test push through a provider that is not configured (503), and sends nothing', async () => {
    const onlyNtfy = await startTestServer({ realPush: true, env: { NTFY_SERVER: ntfy.url } });
    try {
      const u = await aUser(onlyNtfy.api);
      const before = ntfy.requests.length;
      const res = await onlyNtfy.api.post('notifications.php?action=test', { provider: 'onesignal' }, { token: u.token });
      expect(res.status).toBe(503);
      expect(res.body.code).toBe('push_provider_unavailable');
      expect(ntfy.requests.length).toBe(before);
      expect((await onlyNtfy.api.post('notifications.php?action=test', { provider: 'both' }, { token: u.token })).status).toBe(200);
      expect(ntfy.requests.length).toBe(before + 1);
    } finally {
      await onlyNtfy.close();
    }
  });
});
