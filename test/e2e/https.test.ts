import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ env: { API_REQUIRE_HTTPS: 'true', API_TRUSTED_PROXIES: '127.0.0.1,::1' } });
});
afterAll(() => t.close());

describe('API_REQUIRE_HTTPS', () => {
  it('refuses plain HTTP with a clear 403', async () => {
    const res = await t.api.get('settings.php');
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ success: false, code: 'https_required' });
  });

  it('accepts a request a trusted proxy forwarded from HTTPS', async () => {
    const res = await t.api.get('settings.php', { headers: { 'X-Forwarded-Proto': 'https' } });
    expect(res.status).toBe(200);
  });
});

describe('untrusted proxies', () => {
  it('ignores X-Forwarded-Proto from an address that is not a trusted proxy', async () => {
    const s = await startTestServer({ env: { API_REQUIRE_HTTPS: 'true', API_TRUSTED_PROXIES: '10.9.9.9' } });
    try {
      const res = await s.api.get('settings.php', { headers: { 'X-Forwarded-Proto': 'https' } });
      expect(res.status).toBe(403);
    } finally {
      await s.close();
    }
  });
});

describe('trusted proxies as ranges (proxy-addr)', () => {
  it.each([['127.0.0.0/8'], ['loopback'], ['10.0.0.0/8, loopback']])(
    'believes X-Forwarded-Proto from a peer inside %s',
    async (proxies) => {
      const s = await startTestServer({ env: { API_REQUIRE_HTTPS: 'true', API_TRUSTED_PROXIES: proxies } });
      try {
        expect((await s.api.get('settings.php', { headers: { 'X-Forwarded-Proto': 'https' } })).status).toBe(200);
        expect((await s.api.get('settings.php')).status).toBe(403);
      } finally {
        await s.close();
      }
    },
  );

  it('ignores it from a peer outside every range', async () => {
    const s = await startTestServer({ env: { API_REQUIRE_HTTPS: 'true', API_TRUSTED_PROXIES: '10.0.0.0/8,uniquelocal' } });
    try {
      expect((await s.api.get('settings.php', { headers: { 'X-Forwarded-Proto': 'https' } })).status).toBe(403);
    } finally {
      await s.close();
    }
  });
});

describe('client address behind a trusted proxy', () => {
  // Anonymous reads are counted by address: X-RateLimit-Remaining tells which address was counted.
  const remainingFor = async (forwardedFor: string) =>
    Number(
      (await t.api.get('settings.php', { headers: { 'X-Forwarded-Proto': 'https', 'X-Forwarded-For': forwardedFor } })).headers.get(
        'x-ratelimit-remaining',
      ),
    );

  it('is the nearest untrusted hop of X-Forwarded-For', async () => {
    const first = await remainingFor('198.51.100.7');
    expect(await remainingFor('203.0.113.1, 198.51.100.8')).toBe(first); // another client: its own count
    expect(await remainingFor('198.51.100.7')).toBe(first - 1);
    expect(await remainingFor('203.0.113.99, 198.51.100.7')).toBe(first - 2); // what lies beyond is not believed
  });

  it('is the relaying proxy when the nearest hop is no address, so no header becomes a key', async () => {
    const res = await t.api.get('settings.php', { headers: { 'X-Forwarded-Proto': 'https', 'X-Forwarded-For': `${'x'.repeat(400)}` } });
    expect(res.status).toBe(200);
    const proxy = Number(res.headers.get('x-ratelimit-remaining'));
    const again = await t.api.get('settings.php', { headers: { 'X-Forwarded-Proto': 'https', 'X-Forwarded-For': 'not-an-address' } });
    expect(Number(again.headers.get('x-ratelimit-remaining'))).toBe(proxy - 1);
    expect(await remainingFor('127.0.0.1')).toBe(proxy - 2);
  });
});
