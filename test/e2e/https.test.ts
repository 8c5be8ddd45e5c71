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
