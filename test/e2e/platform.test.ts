import { mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { ConfigError, loadConfig, startPlaza } from '@plaza/server';
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
    expect(res.body).toEqual({
      success: false,
      error: 'Unknown script nope.php',
      message: 'Unknown script nope.php',
      code: 'unknown_script',
    });
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
    const bodies: unknown[] = [
      null,
      0,
      'x',
      [],
      { username: null },
      { username: { a: 1 } },
      { username: 'x'.repeat(10_000), password: 'y' },
      { totp: true },
    ];
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
    const ops = res.body.endpoints as {
      script: string;
      method: string;
      selector: { action?: string };
      auth: string;
      body_fields: string[];
    }[];
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
    // The answer depends on Origin, granted or not: a shared cache must not reuse it for another origin.
    expect(res.headers.get('vary')).toContain('Origin');
  });

  it('grants no origin at all when API_CORS_ORIGINS is set but empty, rather than every one', async () => {
    const s = await startTestServer({ env: { API_CORS_ORIGINS: '' } });
    try {
      const res = await s.api.get('settings.php', { headers: { Origin: 'https://app.example.org' } });
      expect(res.status).toBe(200);
      expect(res.headers.get('access-control-allow-origin')).toBeNull();
      const pre = await s.api.request('OPTIONS', 'users.php', undefined, {
        headers: { Origin: 'https://app.example.org', 'Access-Control-Request-Method': 'PUT' },
      });
      expect(pre.headers.get('access-control-allow-origin')).toBeNull();
      expect(pre.headers.get('access-control-allow-methods')).toBeNull();
    } finally {
      await s.close();
    }
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

/** POSTs `body` as is (compressed bytes, say) with a Content-Encoding header. */
function postEncoded(base: string, path: string, encoding: string, body: Buffer | string, headers: Record<string, string> = {}) {
  return fetch(`${base}/api/v1/${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'Content-Encoding': encoding, ...headers },
    body,
  }).then(async (res) => ({ status: res.status, headers: res.headers, body: (await res.json()) as any }));
}

describe('Content-Encoding', () => {
  const ENCODERS = { gzip: gzipSync, deflate: deflateSync, br: brotliCompressSync };

  it('decodes gzip, deflate and br bodies', async () => {
    const u = await aUser(t.api);
    for (const [encoding, encode] of Object.entries(ENCODERS)) {
      const res = await postEncoded(t.url, 'auth.php', encoding, encode(JSON.stringify({ username: u.username, password: u.password })));
      expect(res.status, encoding).toBe(200);
      expect(res.body.success, encoding).toBe(true);
    }
  });

  it('answers a body that does not decode with 400 and an unknown encoding with 415, never a 500', async () => {
    const json = JSON.stringify({ username: 'nobody', password: 'whatever' });
    for (const encoding of Object.keys(ENCODERS)) {
      const res = await postEncoded(t.url, 'auth.php', encoding, json);
      expect(res.status, encoding).toBe(400);
      expect(res.body, encoding).toMatchObject({ success: false, code: 'malformed_encoding' });
    }
    const truncated = await postEncoded(t.url, 'auth.php', 'gzip', gzipSync(json).subarray(0, 12));
    expect(truncated.status).toBe(400);
    for (const encoding of ['compress', 'x-unknown', 'gzip, br']) {
      const res = await postEncoded(t.url, 'auth.php', encoding, json);
      expect(res.status, encoding).toBe(415);
      expect(res.body, encoding).toMatchObject({ success: false, code: 'unsupported_encoding' });
    }
  });

  it('applies the body limit to the decoded size', async () => {
    const bomb = gzipSync(`{"bio": "${' '.repeat(2 * 1024 * 1024)}"}`);
    expect(bomb.length).toBeLessThan(64 * 1024);
    const res = await postEncoded(t.url, 'auth.php', 'gzip', bomb);
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({ success: false, code: 'payload_too_large' });
  });
});

describe('X-Content-Type-Options', () => {
  it('is nosniff on every response: successes, errors, 404s, health, preflights and the docs', async () => {
    const u = await aUser(t.api);
    const responses = [
      await t.api.get('settings.php'),
      await t.api.get('users.php', { token: u.token }),
      await t.api.get('users.php'),
      await t.api.get('nope.php'),
      await t.api.get('/nothing/here'),
      await t.api.request('PATCH', 'users.php'),
      await t.api.request('POST', 'auth.php', undefined, { raw: '{"username": ' }),
      await t.api.request('HEAD', 'users.php', undefined, { token: u.token }),
      await t.api.request('OPTIONS', 'users.php', undefined, {
        headers: { Origin: 'https://app.example.org', 'Access-Control-Request-Method': 'PUT' },
      }),
      await t.api.get('/health-public.php'),
      await t.api.get('openapi.json'),
      await t.api.get('docs'),
      await t.api.get('docs/nope.js'),
    ];
    for (const res of responses)
      expect(res.headers.get('x-content-type-options'), `${res.status} ${JSON.stringify(res.body)?.slice(0, 80)}`).toBe('nosniff');
  });
});

/** Sends the headers and the start of a body that never ends: only a server that does not read it answers. */
function postHalfABody(base: string, path: string): Promise<{ status: number; headers: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${base}/api/v1/${path}`,
      { method: 'POST', headers: { 'Content-Type': 'application/json', 'Content-Length': '1000' } },
      (res) => {
        res.resume();
        clearTimeout(timer);
        resolve({ status: res.statusCode!, headers: res.headers });
        req.destroy();
      },
    );
    const timer = setTimeout(() => {
      req.destroy();
      reject(new Error('no answer: the server waited for the rest of the body'));
    }, 3000);
    req.on('error', () => {});
    req.write('{"username": "a",');
  });
}

describe('bodies refused while reading', () => {
  it('count by address with the headers, and an address refused is not read from again in that group', async () => {
    const s = await startTestServer({ env: { API_RATE_LIMITS: 'default=3' } });
    try {
      const u = await aUser(s.api); // the auth group, apart from default
      const refusals = [
        await s.api.request('POST', 'posts.php', undefined, { raw: '{"content": ' }),
        await postEncoded(s.url, 'posts.php', 'gzip', '{"content": "x"}'),
        await postEncoded(s.url, 'posts.php', 'x-unknown', '{"content": "x"}'),
      ];
      expect(refusals.map((r) => r.status)).toEqual([400, 400, 415]);
      expect(refusals.map((r) => r.headers.get('x-ratelimit-limit'))).toEqual(['3', '3', '3']);
      expect(refusals.map((r) => r.headers.get('x-ratelimit-remaining'))).toEqual(['2', '1', '0']);

      const over = await s.api.request('POST', 'posts.php', undefined, { raw: '{"content": ' });
      expect(over.status).toBe(429);
      expect(over.body.code).toBe('rate_limited');
      expect(over.headers.get('x-ratelimit-remaining')).toBe('0');
      expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);

      // From now on this address's bodies are refused unread in `default`, the group that refused it:
      // a body that would never finish arriving, or one with a token that authenticates nobody…
      const half = await postHalfABody(s.url, 'no-such-script.php');
      expect(half.status).toBe(429);
      expect(half.headers['x-ratelimit-remaining']).toBe('0');
      const badToken = await s.api.post('no-such-script.php', { x: 1 }, { token: 'not-a-token' });
      expect(badToken.status).toBe(429);
      // …but a request of another group is read and served (docs/decisions/0102): a login, whose own
      // group has room left.
      const login = await s.api.post('auth.php', { username: u.username, password: u.password });
      expect(login.status).toBe(200);
      expect(login.body.success).toBe(true);
      expect(login.headers.get('x-ratelimit-limit')).not.toBe('3');

      // Per-user counting is untouched: a valid token's writes are its own, and reads have no body.
      const write = await s.api.put('users.php', { bio: 'still here' }, { token: u.token });
      expect(write.status).toBe(200);
      expect(write.headers.get('x-ratelimit-remaining')).toBe('2');
      expect((await s.api.get('settings.php')).status).toBe(200);
    } finally {
      await s.close();
    }
  });
});

describe('start-up', () => {
  it('derives the public URL from the port PORT=0 actually took', async () => {
    const s = await startTestServer({ env: { API_PUBLIC_URL: '' } });
    try {
      const port = new URL(s.url).port;
      expect(s.plaza.config.port).toBe(Number(port));
      expect(s.plaza.config.publicUrl).toBe(`http://localhost:${port}`);
      const u = await aUser(s.api);
      const me = await s.api.get('users.php', { token: u.token });
      expect(me.body.fediverse_actor_id).toMatch(new RegExp(`^http://localhost:${port}/`));
    } finally {
      await s.close();
    }
  });

  it('creates a missing API_UPLOADS_PATH, and refuses with one line one that cannot be created', async () => {
    const root = mkdtempSync(join(tmpdir(), 'plaza-uploads-'));
    const uploads = join(root, 'shared', 'uploads');
    const s = await startTestServer({ env: { API_UPLOADS_PATH: uploads } });
    await s.close();
    expect(statSync(uploads).isDirectory()).toBe(true);

    writeFileSync(join(root, 'a-file'), '');
    const blocked = join(root, 'a-file', 'uploads');
    const config = loadConfig({ PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', API_DATA_DIR: root, API_UPLOADS_PATH: blocked });
    const started = startPlaza(config, { jobs: false });
    await expect(started).rejects.toThrow(ConfigError);
    await expect(started).rejects.toThrow(
      new RegExp(`^Invalid configuration: API_UPLOADS_PATH ${blocked} cannot be created or written \\(ENOTDIR\\)$`),
    );
  });
});
