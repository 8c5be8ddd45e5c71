import { ManualClock } from '@plaza/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FormClient, text } from '../support/form-client.js';
import { aComment, aPost, aUser } from '../support/mothers.js';
import { startTestServer, type TestServer } from '../support/server.js';

// Limits fair behind a shared address (docs/decisions/0102): a 429 refuses only its own group, and
// logins count per account as well as per address. Client addresses are told by X-Forwarded-For,
// which the default API_TRUSTED_PROXIES (loopback) believes.
let t: TestServer;
const clock = new ManualClock('2026-06-01T10:20:00Z');
const ACCOUNT_LIMIT = 20;
const ADDRESS_LIMIT = 30;
beforeAll(async () => {
  t = await startTestServer({
    env: {
      API_RATE_LIMITS: `auth=${ADDRESS_LIMIT},default=3,posts=2`,
      API_LOGIN_ACCOUNT_LIMIT: String(ACCOUNT_LIMIT),
      API_RATE_LIMIT_STORE: 'database',
    },
    clock,
  });
});
afterAll(() => t.close());

const from = (address: string) => ({ headers: { 'X-Forwarded-For': address } });
const login = (username: string, password: string, address: string) => t.api.post('auth.php', { username, password }, from(address));

describe('fair rate limits', () => {
  it('an address that exhausted `default` on unknown scripts can still log in and register', async () => {
    const u = await aUser(t.api);
    const address = '198.51.100.10';
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await t.api.post('no-such-script.php', { junk: i }, from(address))).status);
    expect(statuses).toEqual([404, 404, 404, 429]);
    // Still refused in its own group, body unread or not.
    expect((await t.api.post('no-such-script.php', { junk: 5 }, from(address))).status).toBe(429);

    const signedIn = await login(u.username, u.password, address);
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.success).toBe(true);
    expect(signedIn.headers.get('x-ratelimit-limit')).toBe(String(ADDRESS_LIMIT));
    const registered = await t.api.post(
      'auth.php?action=register',
      { username: 'behind_nat', email: 'behind_nat@example.test', password: 'long enough pw' },
      from(address),
    );
    expect(registered.status).toBe(200);
    expect(registered.body.success).toBe(true);
  });

  it('failed logins lock one account, not the address: another account signs in until the address limit', async () => {
    const a = await aUser(t.api);
    const b = await aUser(t.api);
    const nat = '198.51.100.20';
    // aUser signed A in once: every attempt counts, right or wrong.
    const answers = [];
    for (let i = 1; i < ACCOUNT_LIMIT; i++) answers.push((await login(a.username, 'wrong password', nat)).body.code);
    expect(answers).toEqual(Array(ACCOUNT_LIMIT - 1).fill('invalid_credentials'));
    // The account is refused, even with its right password (no guessing past the limit)…
    const locked = await login(a.username.toUpperCase(), a.password, nat);
    expect(locked.status).toBe(429);
    expect(locked.body.code).toBe('rate_limited');
    expect(Number(locked.headers.get('retry-after'))).toBe(40 * 60);
    // …while another account behind the same address still signs in.
    const other = await login(b.username, b.password, nat);
    expect(other.status).toBe(200);
    expect(other.body.success).toBe(true);
    // Until the address's own limit: 21 requests so far (the refused one too), 30 allowed; unknown
    // accounts count as well.
    const left = ADDRESS_LIMIT - (ACCOUNT_LIMIT + 1);
    const rest = [];
    for (let i = 0; i < left; i++) rest.push((await login(`nobody${i}`, 'whatever', nat)).status);
    expect(rest).toEqual(Array(left).fill(200));
    expect((await login(b.username, b.password, nat)).status).toBe(429);
  });

  it('the per-account limit holds from another address, and counts unknown accounts alike', async () => {
    const a = await aUser(t.api);
    for (let i = 0; i < ACCOUNT_LIMIT; i++) await login(a.email, 'wrong password', '198.51.100.30');
    // The e-mail and the user name of one account share nothing: each is the login as typed, lower-cased.
    const elsewhere = await login(a.email.toUpperCase(), a.password, '198.51.100.31');
    expect(elsewhere.status).toBe(429);
    const unknown = [];
    for (let i = 0; i <= ACCOUNT_LIMIT; i++)
      unknown.push((await login('Ghost@Example.test', 'whatever', `198.51.100.${40 + (i % 5)}`)).status);
    expect(unknown).toEqual([...Array(ACCOUNT_LIMIT).fill(200), 429]);
    // The address that met the locked accounts is not refused for a third one.
    const c = await aUser(t.api);
    expect((await login(c.username, c.password, '198.51.100.31')).body.success).toBe(true);
  });

  it("counts the admin panel's sign-ins against the same account counter", async () => {
    const a = await aUser(t.api); // one auth.php login of A already
    const b = new FormClient(t.url);
    const address = { 'X-Forwarded-For': '198.51.100.60' };
    await b.get('/admin/login.php', address);
    for (let i = 1; i < ACCOUNT_LIMIT; i++)
      expect((await b.post('/admin/login.php', { login: a.username, password: 'wrong' }, address)).status).toBe(401);
    const locked = await b.post('/admin/login.php', { login: a.username, password: a.password }, address);
    expect(locked.status).toBe(429);
    expect(text(locked.html)).toContain('Too many requests');
    // And the API's login of that account too, from anywhere.
    expect((await login(a.username, a.password, '198.51.100.61')).status).toBe(429);
  });

  it('counts simultaneous failed logins of one account exactly', async () => {
    const all = await Promise.all(
      Array.from({ length: ACCOUNT_LIMIT + 1 }, (_, i) => login('raced@example.test', 'wrong password', `203.0.113.${i + 1}`)),
    );
    const statuses = all.map((r) => r.status).sort();
    expect(statuses).toEqual([...Array(ACCOUNT_LIMIT).fill(200), 429]);
    expect(all.filter((r) => r.status === 200).every((r) => r.body.code === 'invalid_credentials')).toBe(true);
  });

  it('a 429 in posts leaves comments open', async () => {
    const u = await aUser(t.api);
    const post = await aPost(t.api, u);
    await aPost(t.api, u);
    const third = await t.api.post('posts.php', { content: 'one too many' }, { token: u.token });
    expect(third.status).toBe(429);
    await aComment(t.api, u, post);
  });

  it('a 429 in one group does not refuse an unauthenticated request of another group before its body is read', async () => {
    const address = '198.51.100.50';
    for (let i = 0; i < 4; i++) await t.api.post('no-such-script.php', {}, from(address));
    // forgot_password counts in auth: its body is read and answered.
    const forgot = await t.api.post('auth.php?action=forgot_password', { email: 'someone@example.test' }, from(address));
    expect(forgot.status).toBe(200);
    // A request of the refused group is still answered 429, whatever it carries.
    const malformed = await t.api.post('no-such-script.php', undefined, { ...from(address), raw: '{not json' });
    expect(malformed.status).toBe(429);
  });
});
