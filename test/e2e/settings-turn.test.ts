import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aUser } from '../support/mothers.js';
import { startTestServer, type TestServer } from '../support/server.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({
    env: {
      PUSH_APP_ID: 'onesignal-app-1',
      WEBRTC_TURN_URLS: 'turn:turn.example.org:3478,turns:turn.example.org:5349',
      WEBRTC_TURN_AUTH_SECRET: 's3cret',
      WEBRTC_TURN_TTL: '3600',
    },
  });
});
afterAll(() => t.close());

describe('settings.php with a TURN shared secret', () => {
  it('derives temporary HMAC credentials per user', async () => {
    const u = await aUser(t.api);
    const res = await t.api.get('settings.php', { token: u.token });
    expect(res.body.onesignal_app_id).toBe('onesignal-app-1');
    const [turn] = res.body.turn_servers;
    expect(turn.urls).toEqual(['turn:turn.example.org:3478', 'turns:turn.example.org:5349']);
    const [expiry, who] = turn.username.split(':');
    expect(who).toBe(String(u.id));
    const now = Math.floor(Date.now() / 1000);
    expect(Number(expiry)).toBeGreaterThan(now + 3500);
    expect(Number(expiry)).toBeLessThanOrEqual(now + 3601);
    expect(turn.credential).toBe(createHmac('sha1', 's3cret').update(turn.username).digest('base64'));
    expect(res.body.webrtc_ice_servers).toEqual(expect.arrayContaining([turn]));
    expect(res.body.turn_credentials_mode).toBe('hmac');
  });

  it('uses "anon" without a token', async () => {
    const res = await t.api.get('settings.php');
    expect(res.body.turn_servers[0].username).toMatch(/^\d+:anon$/);
  });
});
