import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OtplibTotp } from '@plaza/adapters-integrations';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FormClient, text } from '../support/form-client.js';
import { aUser, type TestUser } from '../support/mothers.js';
import { startTestServer, type TestServer } from '../support/server.js';

/**
 * The admin panel over plain HTTP (the browser suite, admin-panel.test.ts, drives the same pages in
 * Chromium): cookie flags, CSRF refusals, the 403 page, escaping, sign-in with two-factor, the
 * tokens page, and the last administrator under concurrent withdrawals.
 */
let t: TestServer;
let configDir: string;
beforeAll(async () => {
  configDir = mkdtempSync(join(tmpdir(), 'plaza-admin-http-'));
  t = await startTestServer({
    env: { API_CONFIG_DIR: configDir, MEDIA_SERVER_URL: '', MEDIA_SERVER_API_KEY: '', MEDIA_SERVER_API_SECRET: '' },
  });
});
afterAll(async () => {
  await t?.close();
  rmSync(configDir, { recursive: true, force: true });
});

const db = () => t.database.db;
const setFlags = (id: number, flags: { is_admin?: number; is_technician?: number }) =>
  db().updateTable('users').set(flags).where('id', '=', id).execute();
const browser = () => new FormClient(t.url);

async function signedIn(u: TestUser): Promise<FormClient> {
  const b = browser();
  await b.signIn(u.username, u.password);
  return b;
}

describe('sign-in', () => {
  it('sets an HttpOnly, SameSite=Strict session cookie, Secure only under HTTPS (a trusted proxy saying so)', async () => {
    const plain = await browser().get('/admin/login.php');
    expect(plain.status).toBe(200);
    expect(plain.headers.get('content-type')).toMatch(/^text\/html/);
    expect(plain.headers.get('content-security-policy')).toContain("default-src 'none'");
    const [cookie] = FormClient.setCookies(plain);
    expect(cookie).toMatch(/^plaza_admin=[\w-]{40,};/);
    expect(cookie).toMatch(/; httponly/i);
    expect(cookie).toMatch(/; samesite=strict/i);
    expect(cookie).not.toMatch(/; secure/i);
    // The test client connects from 127.0.0.1, which API_TRUSTED_PROXIES trusts by default.
    const behindTls = await browser().get('/admin/login.php', { 'X-Forwarded-Proto': 'https' });
    expect(FormClient.setCookies(behindTls)[0]).toMatch(/; secure/i);
  });

  it('signs in with the username or the e-mail, refuses a wrong password, and signs out for good', async () => {
    const u = await aUser(t.api);
    const b = browser();
    await b.get('/admin/login.php');
    const wrong = await b.post('/admin/login.php', { login: u.username, password: 'not the password' });
    expect(wrong.status).toBe(401);
    expect(text(wrong.html)).toContain('Wrong username, e-mail or password');
    expect((await b.get('/admin/tokens.php')).location).toBe('/admin/login.php?next=%2Fadmin%2Ftokens.php');

    const ok = await b.signIn(u.email.toUpperCase(), u.password);
    expect(ok.location).toBe('/admin/tokens.php');
    const tokens = await b.get('/admin/tokens.php');
    expect(tokens.status).toBe(200);
    expect(text(tokens.html)).toContain(`@${u.username}`);
    expect(text(tokens.html)).toContain('this browser');

    const stolen = new Map(b.cookies);
    const out = await b.post('/admin/logout.php', {});
    expect(out.status).toBe(303);
    expect(out.location).toBe('/admin/login.php?signed_out=1');
    // The old cookie opens nothing any more: its session and its token are gone.
    const replay = browser();
    for (const [k, v] of stolen) replay.cookies.set(k, v);
    expect((await replay.get('/admin/tokens.php')).status).toBe(303);
  });

  it('asks for the TOTP code when two-factor is on, and accepts the current one', async () => {
    const u = await aUser(t.api);
    const totp = new OtplibTotp();
    const status = await t.api.get('two_factor.php', { token: u.token });
    const enable = await t.api.post(
      'two_factor.php?action=enable',
      { code: await totp.current(status.body.secret, new Date()) },
      { token: u.token },
    );
    expect(enable.status).toBe(200);
    const b = browser();
    await b.get('/admin/login.php');
    const challenge = await b.post('/admin/login.php', { login: u.username, password: u.password });
    expect(challenge.status).toBe(200);
    expect(challenge.html).toContain('name="totp"');
    expect(text(challenge.html)).toContain('two-factor authentication');
    const badCode = await b.post('/admin/login.php', { login: u.username, password: u.password, totp: '000000' });
    expect(badCode.status).toBe(401);
    // A recovery code works once, as on auth.php.
    const signed = await b.post('/admin/login.php', { login: u.username, password: u.password, totp: enable.body.recovery_codes[0] });
    expect(signed.status).toBe(303);
    expect((await b.get('/admin/tokens.php')).status).toBe(200);
  });

  it('gives a new session key at sign-in (no fixation)', async () => {
    const u = await aUser(t.api);
    const b = browser();
    await b.get('/admin/login.php');
    const before = b.cookies.get('plaza_admin');
    await b.post('/admin/login.php', { login: u.username, password: u.password });
    expect(b.cookies.get('plaza_admin')).toBeTruthy();
    expect(b.cookies.get('plaza_admin')).not.toBe(before);
  });
});

describe('CSRF', () => {
  it('refuses a POST without the token, or with a forged one, with the 403 page and no change', async () => {
    const u = await aUser(t.api);
    const b = await signedIn(u);
    await b.get('/admin/tokens.php');
    const count = async () =>
      (await db().selectFrom('access_tokens').select('id').where('user_id', '=', u.id).where('revoked_at', 'is', null).execute()).length;
    const before = await count();
    const missing = await b.post('/admin/tokens.php', { action: 'create', _csrf: null });
    expect(missing.status).toBe(403);
    expect(missing.headers.get('content-type')).toMatch(/^text\/html/);
    expect(text(missing.html)).toContain('This form has expired or did not come from this site');
    const forged = await b.post('/admin/tokens.php', { action: 'create', _csrf: 'forged-token' });
    expect(forged.status).toBe(403);
    expect(await count()).toBe(before);
    // The sign-in form too: no token, no sign-in.
    const anonymous = browser();
    await anonymous.get('/admin/login.php');
    expect((await anonymous.post('/admin/login.php', { login: u.username, password: u.password, _csrf: null })).status).toBe(403);
    expect((await anonymous.get('/admin/tokens.php')).status).toBe(303);
  });
});

describe('permissions', () => {
  it('gives a non-technician the 403 page on the media-server and TURN pages, and a non-admin on the technicians tab', async () => {
    const u = await aUser(t.api);
    const b = await signedIn(u);
    for (const page of ['/admin/media_server.php', '/admin/turn.php']) {
      const res = await b.get(page);
      expect(res.status, page).toBe(403);
      expect(text(res.html)).toContain('This page is reserved to technicians');
      const post = await b.post(page, { url: 'wss://x.example.org', api_key: 'k', api_secret: 'secret-secret', password: u.password });
      expect(post.status, `POST ${page}`).toBe(403);
    }
    for (const page of ['/admin.php?tab=technicians', '/api/v1/admin.php?tab=technicians']) {
      const res = await b.get(page);
      expect(res.status, page).toBe(403);
      expect(text(res.html)).toContain('reserved to administrators');
    }
    // The technician flag opens the media-server page, not the administrators' tab.
    await setFlags(u.id, { is_technician: 1 });
    expect((await b.get('/admin/media_server.php')).status).toBe(200);
    expect((await b.get('/admin/turn.php')).status).toBe(200);
    expect((await b.get('/admin.php?tab=technicians')).status).toBe(403);
  });

  it('answers an unknown tab with 404 and another method with 405, as pages', async () => {
    const u = await aUser(t.api);
    const b = await signedIn(u);
    expect((await b.get('/admin.php?tab=nope')).status).toBe(404);
    const put = await fetch(`${t.url}/admin/tokens.php`, { method: 'PUT' });
    expect(put.status).toBe(405);
    expect(put.headers.get('allow')).toBe('GET, POST');
  });
});

describe('escaping', () => {
  it('shows user-controlled values as text, never as markup', async () => {
    const admin = await aUser(t.api);
    await setFlags(admin.id, { is_admin: 1 });
    const evil = await aUser(t.api, { email: `x<script>alert(1)</script>${Date.now()}@evil.example` });
    // Usernames of the API are restricted; rows written by the main application are not.
    await db()
      .updateTable('users')
      .set({ username: `<script>alert("u")</script>${evil.id}` })
      .where('id', '=', evil.id)
      .execute();
    const b = await signedIn(admin);
    const page = await b.get(`/admin.php?tab=technicians&q=${encodeURIComponent('<script>')}`);
    expect(page.status).toBe(200);
    expect(page.html).toContain(`@&lt;script&gt;alert(&quot;u&quot;)&lt;/script&gt;${evil.id}`);
    expect(page.html).not.toMatch(/<script/i);
    const byEmail = await b.get(`/admin.php?tab=technicians&q=${encodeURIComponent('x<script>')}`);
    expect(byEmail.html).toContain('x&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(byEmail.html).not.toMatch(/<script/i);
    // What the sign-in form echoes back.
    const anon = browser();
    await anon.get('/admin/login.php');
    const echoed = await anon.post('/admin/login.php', { login: '"><script>alert(2)</script>', password: 'whatever-password' });
    expect(echoed.html).toContain('value="&quot;&gt;&lt;script&gt;alert(2)&lt;/script&gt;"');
    expect(echoed.html).not.toMatch(/<script/i);
  });
});

describe('tokens page', () => {
  it('creates a token shown once that works on the API, and revokes it', async () => {
    const u = await aUser(t.api);
    const b = await signedIn(u);
    await b.get('/admin/tokens.php');
    const created = await b.post('/admin/tokens.php', { action: 'create' });
    expect(created.status).toBe(200);
    const token = /<code class="secret" id="new-token">([^<]+)<\/code>/.exec(created.html)?.[1];
    expect(token).toMatch(/^\S{20,}$/);
    expect((await t.api.get('users.php', { token })).status).toBe(200);
    const again = await b.get('/admin/tokens.php');
    expect(again.html).not.toContain(token!);
    const ids = [...again.html.matchAll(/name="token_id" value="(\d+)"/g)].map((m) => Number(m[1]));
    const newest = Math.max(...ids);
    const revoked = await b.post('/admin/tokens.php', { action: 'revoke', token_id: String(newest) });
    expect(revoked.status).toBe(303);
    expect((await t.api.get('users.php', { token })).status).toBe(401);
    // Someone else's token is not among one's own.
    const other = await aUser(t.api);
    const theirs = await db().selectFrom('access_tokens').select('id').where('user_id', '=', other.id).executeTakeFirstOrThrow();
    await b.get('/admin/tokens.php');
    expect((await b.post('/admin/tokens.php', { action: 'revoke', token_id: String(theirs.id) })).status).toBe(404);
    expect((await t.api.get('users.php', { token: other.token })).status).toBe(200);
  });
});

describe('administrators', () => {
  it('promotes and withdraws, and refuses the last administrator withdrawing themselves', async () => {
    // Only these two are admins in this test's world.
    await db().updateTable('users').set({ is_admin: 0 }).execute();
    const a = await aUser(t.api);
    const c = await aUser(t.api);
    await setFlags(a.id, { is_admin: 1 });
    const b = await signedIn(a);
    await b.get(`/admin.php?tab=technicians&q=${c.username}`);
    const promoted = await b.post(`/admin.php?tab=technicians&q=${c.username}`, { action: 'promote', user_id: String(c.id) });
    expect(promoted.status).toBe(303);
    expect((await db().selectFrom('users').select('is_admin').where('id', '=', c.id).executeTakeFirstOrThrow()).is_admin).toBe(1);
    await b.get('/admin.php?tab=technicians');
    expect((await b.post('/admin.php?tab=technicians', { action: 'withdraw', user_id: String(c.id) })).status).toBe(303);
    await b.get('/admin.php?tab=technicians');
    const last = await b.post('/admin.php?tab=technicians', { action: 'withdraw', user_id: String(a.id) });
    expect(last.status).toBe(409);
    expect(text(last.html)).toContain('The last administrator cannot withdraw');
    expect((await db().selectFrom('users').select('is_admin').where('id', '=', a.id).executeTakeFirstOrThrow()).is_admin).toBe(1);
  });

  it('leaves exactly one administrator when the last two withdraw themselves 20 times at once', async () => {
    const [a, c] = [await aUser(t.api), await aUser(t.api)];
    const [ba, bc] = [await signedIn(a), await signedIn(c)];
    for (let round = 0; round < 5; round++) {
      await db().updateTable('users').set({ is_admin: 0 }).execute();
      await setFlags(a.id, { is_admin: 1 });
      await setFlags(c.id, { is_admin: 1 });
      await ba.get('/admin.php?tab=technicians');
      await bc.get('/admin.php?tab=technicians');
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          i % 2
            ? bc.post('/admin.php?tab=technicians', { action: 'withdraw', user_id: String(c.id) })
            : ba.post('/admin.php?tab=technicians', { action: 'withdraw', user_id: String(a.id) }),
        ),
      );
      expect(answers.filter((r) => r.status >= 500).map((r) => text(r.html).slice(0, 200))).toEqual([]);
      const admins = await db().selectFrom('users').select('id').where('is_admin', '=', 1).execute();
      expect(admins, `round ${round}`).toHaveLength(1);
      expect([a.id, c.id]).toContain(admins[0].id);
      expect(answers.filter((r) => r.status === 303)).toHaveLength(1);
      // The others: refused as the last one, or as no longer an admin (the withdrawn one's later requests).
      expect(answers.filter((r) => r.status !== 303).every((r) => r.status === 409 || r.status === 403)).toBe(true);
    }
  });
});

describe('when the environment sets them', () => {
  it('keeps the MEDIA_SERVER_* and WEBRTC_TURN_* values in effect, says so, and still writes the files', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'plaza-admin-env-'));
    // The test server's default MEDIA_SERVER_* (all three) stay set here.
    const s = await startTestServer({
      env: { API_CONFIG_DIR: dir, WEBRTC_TURN_URLS: 'turn:env.example.org:3478', WEBRTC_TURN_AUTH_SECRET: 'env-turn-secret' },
    });
    try {
      const u = await aUser(s.api);
      await s.database.db.updateTable('users').set({ is_technician: 1 }).where('id', '=', u.id).execute();
      const b = new FormClient(s.url);
      await b.signIn(u.username, u.password);
      const media = await b.get('/admin/media_server.php');
      expect(text(media.html)).toContain('The environment wins. MEDIA_SERVER_URL, MEDIA_SERVER_API_KEY, MEDIA_SERVER_API_SECRET are set');
      const saved = await b.post('/admin/media_server.php', {
        url: 'wss://file.example.org',
        api_key: 'APIfilekey',
        api_secret: 'file-secret-0123',
        password: u.password,
      });
      expect(saved.status).toBe(303);
      expect(readFileSync(join(dir, 'media_server.local.php'), 'utf8')).toContain("'api_key' => 'APIfilekey'");
      const token = await s.api.post(
        'lives.php?path=token',
        { roomName: 'test-lab', identity: `u${u.id}-x`, name: 'T' },
        { token: u.token },
      );
      expect(token.body.url).toBe('wss://media.plaza.test');
      expect(JSON.parse(Buffer.from(token.body.token.split('.')[1], 'base64url').toString()).iss).toBe('APItestkey');

      const turn = await b.get('/admin/turn.php');
      expect(text(turn.html)).toContain('The environment wins. WEBRTC_TURN_URLS is set');
      const turnSaved = await b.post('/admin/turn.php', {
        urls: 'turn:file.example.org:3478',
        secret: 'file-turn-secret-0123456789',
        ttl: '600',
        realm: '',
        password: u.password,
      });
      expect(turnSaved.status).toBe(200);
      const settings = await s.api.get('settings.php', { token: u.token });
      expect(settings.body.turn_servers[0].urls).toEqual(['turn:env.example.org:3478']);
    } finally {
      await s.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('sign-in attempts', () => {
  it('count in the auth group by address, with auth.php logins: past the limit, the 429 page, even for the right password', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'plaza-admin-limit-'));
    const s = await startTestServer({ env: { API_CONFIG_DIR: dir, API_RATE_LIMITS: 'auth=4' } });
    try {
      const u = await aUser(s.api); // register and login: two of the four
      const b = new FormClient(s.url);
      await b.get('/admin/login.php');
      expect((await b.post('/admin/login.php', { login: u.username, password: 'wrong one' })).status).toBe(401);
      expect((await b.post('/admin/login.php', { login: u.username, password: 'wrong two' })).status).toBe(401);
      const limited = await b.post('/admin/login.php', { login: u.username, password: u.password });
      expect(limited.status).toBe(429);
      expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(limited.headers.get('x-ratelimit-remaining')).toBe('0');
      expect(limited.headers.get('content-type')).toMatch(/^text\/html/);
      expect(text(limited.html)).toContain('Too many requests');
      expect((await b.get('/admin/tokens.php')).status).toBe(303);
      expect((await s.api.post('auth.php', { username: u.username, password: u.password })).status).toBe(429);
    } finally {
      await s.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
