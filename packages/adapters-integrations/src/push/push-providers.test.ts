import { afterEach, describe, expect, it } from 'vitest';
import { NtfyPushProvider } from './ntfy-push-provider.js';
import { OneSignalPushProvider } from './onesignal-push-provider.js';
import { loopbackProvider } from '../../../../test/support/loopback-provider.js';

const call = {
  title: '📞 Appel entrant',
  body: 'Ada vous appelle',
  data: { type: 'call', call_id: '12', caller_id: '3', caller_name: 'Ada', is_video: 'true' },
};
const message = { title: 'ada', body: 'salut', data: { type: 'message', sender_id: '3', message_preview: 'salut' } };
const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});

describe('OneSignalPushProvider', () => {
  it('posts one notification to the external id u_<userId> with the data, calls urgent', async () => {
    const api = await loopbackProvider(() => ({ status: 200, body: { id: 'b98881cc', external_id: null } }));
    open.push(api);
    const provider = new OneSignalPushProvider({ appId: 'app-1', apiKey: 'rest-key', apiUrl: api.url });
    await provider.deliver(42, call);
    await provider.deliver(42, message);
    expect(api.requests[0]).toMatchObject({ method: 'POST', url: '/notifications', headers: { authorization: 'Key rest-key' } });
    expect(api.requests[0].body).toEqual({
      app_id: 'app-1',
      target_channel: 'push',
      include_aliases: { external_id: ['u_42'] },
      headings: { en: call.title },
      contents: { en: call.body },
      data: call.data,
      priority: 10,
      ttl: 45,
    });
    expect(api.requests[1].body).not.toHaveProperty('priority');
  });

  it('fails on a 200 answer carrying errors, on an error status, and when unreachable', async () => {
    const api = await loopbackProvider((req) =>
      req.body.include_aliases.external_id[0] === 'u_1'
        ? { status: 200, body: { id: '', errors: ['All included players are not subscribed'] } }
        : { status: 400, body: { errors: ['app_id not found'] } },
    );
    open.push(api);
    const provider = new OneSignalPushProvider({ appId: 'a', apiKey: 'k', apiUrl: api.url });
    await expect(provider.deliver(1, message)).rejects.toThrow(/delivered nothing.*not subscribed/);
    await expect(provider.deliver(2, message)).rejects.toThrow(/HTTP 400/);
    await expect(
      new OneSignalPushProvider({ appId: 'a', apiKey: 'k', apiUrl: 'http://127.0.0.1:1', timeoutMs: 2000 }).deliver(1, message),
    ).rejects.toThrow();
  });

  it('takes an empty errors member as success', async () => {
    const api = await loopbackProvider(() => ({ status: 200, body: { id: 'x', errors: [] } }));
    open.push(api);
    await new OneSignalPushProvider({ appId: 'a', apiKey: 'k', apiUrl: api.url }).deliver(1, message);
  });
});

describe('NtfyPushProvider', () => {
  it('publishes on prefix+userId with the data in actions[0].extras; calls at priority 5', async () => {
    const ntfy = await loopbackProvider(() => ({ status: 200, body: { id: 'abc', event: 'message' } }));
    open.push(ntfy);
    const provider = new NtfyPushProvider({ server: `${ntfy.url}/`, topicPrefix: 'militant_u_' });
    await provider.deliver(7, call);
    await provider.deliver(7, message);
    expect(ntfy.requests[0]).toMatchObject({ method: 'POST', url: '/' });
    expect(ntfy.requests[0].body).toEqual({
      topic: 'militant_u_7',
      title: call.title,
      message: call.body,
      priority: 5,
      tags: ['call'],
      actions: [{ action: 'broadcast', label: 'Open', extras: call.data }],
    });
    expect(ntfy.requests[1].body).toMatchObject({ priority: 3, actions: [{ extras: message.data }] });
  });

  it('fails on an error status', async () => {
    const ntfy = await loopbackProvider(() => ({ status: 507, body: { code: 50701, error: 'insufficient storage' } }));
    open.push(ntfy);
    await expect(new NtfyPushProvider({ server: ntfy.url, topicPrefix: 'p_' }).deliver(1, message)).rejects.toThrow(/HTTP 507/);
  });
});
