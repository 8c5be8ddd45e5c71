import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aUser } from '../support/mothers.js';
import { startTestServer, type TestServer } from '../support/server.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ env: { API_CORS_ORIGINS: 'https://app.example.org' } });
});
afterAll(() => t.close());

describe('dispatcher and error model', () => {
  it('answers an unknown script with a JSON 404', async () => {
    const res = await t.api.get('nope.php');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ success: false, error: 'Unknown script nope.php', message: 'Unknown script nope.php', code: 'unknown_script' });
  });

  it('answers an unknown action with a 400 naming the valid ones', async () => {
    const res = await t.api.post('auth.php?action=logout', {});
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('unknown_action');
    expect(res.body.error).toContain('register');
    expect(res.body.error).toContain('reset_password');
  });

  it('answers a wrong method with 405 and Allow', async () => {
    const res = await t.api.request('PATCH', 'users.php');
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toContain('GET');
    expect(res.body.success).toBe(false);
  });

  it('answers malformed JSON with 400 and never a 500', async () => {
    const res = await t.api.request('POST', 'auth.php', undefined, { raw: '{"username": "a", ' });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, code: 'malformed_json' });
  });

  it('refuses a body that is not an object', async () => {
    const res = await t.api.request('POST', 'auth.php', undefined, { raw: '[1,2]' });
    expect(res.status).toBe(400);
  });

  it('reads form-urlencoded bodies', async () => {
    const u = await aUser(t.api);
    const res = await t.api.request('POST', 'auth.php', undefined, {
      raw: `username=${u.username}&password=${encodeURIComponent(u.password)}`,
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    expect(res.body.success).toBe(true);
  });

  it('serves both /api/v1/ and /v1/ and echoes a request id', async () => {
    const a = await t.api.get('/api/v1/settings.php');
    const b = await t.api.get('/v1/settings.php', { headers: { 'X-Request-Id': 'trace-123' } });
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    expect(a.headers.get('x-request-id')).toBeTruthy();
    expect(b.headers.get('x-request-id')).toBe('trace-123');
  });

  it('survives a fuzz pass of odd inputs with 4xx JSON errors', async () => {
    const u = await aUser(t.api);
    const bodies: unknown[] = [null, 0, 'x', [], { username: null }, { username: { a: 1 } }, { username: 'x'.repeat(10_000), password: 'y' }, { totp: true }];
    const profileBodies: unknown[] = [null, 0, 'x', [], { bio: { a: 1 } }, { bio: 'x'.repeat(10_000) }, { website: true }];
    const cases: [string, string, unknown[]][] = [
      ['POST', 'auth.php', bodies],
      ['POST', 'auth.php?action=register', bodies],
      ['POST', 'auth.php?action=reset_password', bodies],
      ['PUT', 'users.php', profileBodies],
    ];
    for (const [method, path, list] of cases) {
      for (const body of list) {
        const res = await t.api.request(method, path, body, { token: u.token });
        expect(res.status, `${method} ${path} ${JSON.stringify(body)}`).toBeGreaterThanOrEqual(400);
        expect(res.status).toBeLessThan(500);
        expect(res.body.success).toBe(false);
      }
    }
    for (const q of ['id=-1', 'id=1e3', 'id=%00', 'id=', 'id=99999999999999999999']) {
      const res = await t.api.get(`users.php?${q}`, { token: u.token });
      expect(res.status, q).toBeGreaterThanOrEqual(400);
      expect(res.status, q).toBeLessThan(500);
    }
  });
});

describe('index.php and health', () => {
  it('lists every operation from the registry', async () => {
    const res = await t.api.get('index.php');
    expect(res.status).toBe(200);
    const ops = res.body.endpoints as { script: string; method: string; selector: { action?: string }; auth: string; body_fields: string[] }[];
    const login = ops.find((o) => o.script === 'auth.php' && o.selector.action === 'register');
    expect(login).toMatchObject({ method: 'POST', auth: 'none' });
    expect(login!.body_fields).toEqual(expect.arrayContaining(['username', 'email', 'password']));
    expect(ops.some((o) => o.script === 'users.php' && o.method === 'PUT')).toBe(true);
    expect(ops.some((o) => o.script === 'settings.php')).toBe(true);
  });

  it('reports database reachability', async () => {
    const res = await t.api.get('/health-public.php');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, status: 'ok', database: { reachable: true } });
    expect(res.body.timestamp).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
  });
});

describe('CORS', () => {
  it('allows the configured origin and answers preflights', async () => {
    const pre = await t.api.request('OPTIONS', 'users.php', undefined, {
      headers: { Origin: 'https://app.example.org', 'Access-Control-Request-Method': 'PUT' },
    });
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-origin')).toBe('https://app.example.org');
    expect(pre.headers.get('access-control-allow-methods')).toContain('PUT');
  });

  it('gives no CORS grant to other origins', async () => {
    const res = await t.api.get('settings.php', { headers: { Origin: 'https://evil.example' } });
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('settings.php', () => {
  it('is public and flat', async () => {
    const res = await t.api.get('settings.php');
    expect(res.status).toBe(200);
    expect(res.body.data).toBeUndefined();
    expect(typeof res.body.onesignal_app_id).toBe('string');
    for (const k of ['stun_servers', 'turn_servers', 'webrtc_ice_servers', 'ice_servers']) expect(Array.isArray(res.body[k]), k).toBe(true);
  });
});

describe('method dispatch', () => {
  it('serves HEAD like GET, without a body', async () => {
    const u = await aUser(t.api);
    const get = await t.api.get('users.php', { token: u.token });
    const head = await t.api.request('HEAD', 'users.php', undefined, { token: u.token });
    expect(get.status).toBe(200);
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toBe(get.headers.get('content-type'));
    expect(head.headers.get('x-ratelimit-limit')).toBe(get.headers.get('x-ratelimit-limit'));
    expect(head.body).toBeNull();
  });

  it('answers a declared method that lacks its selector with a 400 naming it, not a 405', async () => {
    const u = await aUser(t.api);
    const res = await t.api.put('messages.php', { content: 'x' }, { token: u.token });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, code: 'invalid_input' });
    expect(res.body.details.map((d: { field: string }) => d.field)).toEqual(expect.arrayContaining(['id', 'user_id']));
  });

  it('answers a method no operation has with 405, method_not_allowed and Allow', async () => {
    const u = await aUser(t.api);
    const patch = await t.api.request('PATCH', 'users.php', {}, { token: u.token });
    expect(patch.status).toBe(405);
    expect(patch.body).toMatchObject({ success: false, code: 'method_not_allowed' });
    expect(patch.headers.get('allow')).toBe('GET, HEAD, PUT');
    // The action exists, but only for other methods.
    const react = await t.api.get('messages.php?action=react', { token: u.token });
    expect(react.status).toBe(405);
    expect(react.body.code).toBe('method_not_allowed');
    expect(react.headers.get('allow')).toBe('POST, DELETE');
  });
});
