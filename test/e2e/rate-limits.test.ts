import { ManualClock } from '@plaza/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aUser } from '../support/mothers.js';
import { startTestServer, type TestServer } from '../support/server.js';

let t: TestServer;
// A fixed clock: the hourly window must not roll over in the middle of a test.
const clock = new ManualClock('2026-06-01T10:20:00Z');
beforeAll(async () => {
  // Two limits low enough to reach; the store follows the dialect (database counters on MySQL).
  t = await startTestServer({ env: { API_RATE_LIMITS: 'auth=40,reads=5,default=3', API_RATE_LIMIT_STORE: 'database' }, clock });
});
afterAll(() => t.close());

describe('rate limits', () => {
  it('sends the three headers and refuses past the limit with 429 and Retry-After', async () => {
    const u = await aUser(t.api); // register + login: 2 auth hits from this address
    const seen: number[] = [];
    let last;
    for (let i = 0; i < 6; i++) {
      last = await t.api.get('users.php', { token: u.token });
      seen.push(last.status);
      if (last.status === 200) {
        expect(last.headers.get('x-ratelimit-limit')).toBe('5');
        expect(Number(last.headers.get('x-ratelimit-remaining'))).toBe(5 - (i + 1));
        expect(Number(last.headers.get('x-ratelimit-reset'))).toBe(Date.parse('2026-06-01T11:00:00Z') / 1000);
      }
    }
    expect(seen).toEqual([200, 200, 200, 200, 200, 429]);
    expect(last!.body).toMatchObject({ success: false, code: 'rate_limited' });
    expect(Number(last!.headers.get('retry-after'))).toBe(40 * 60);
    expect(last!.headers.get('x-ratelimit-remaining')).toBe('0');
  });

  it('counts per user: another user still has their whole allowance', async () => {
    const other = await aUser(t.api);
    const res = await t.api.get('users.php', { token: other.token });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-ratelimit-remaining')).toBe('4');
  });

  it('counts writes apart from reads: polling cannot starve a send, nor sends a poll', async () => {
    const u = await aUser(t.api);
    const writes = [];
    for (let i = 0; i < 4; i++) writes.push((await t.api.put('users.php', { bio: `v${i}` }, { token: u.token })).status);
    expect(writes).toEqual([200, 200, 200, 429]);
    const read = await t.api.get('users.php', { token: u.token });
    expect(read.status).toBe(200);
    expect(read.headers.get('x-ratelimit-limit')).toBe('5');
    expect(read.body.bio).toBe('v2');
  });

  it('counts groups separately: the auth group has its own limit', async () => {
    const res = await t.api.post('auth.php', { username: 'nobody', password: 'whatever' });
    expect(res.headers.get('x-ratelimit-limit')).toBe('40');
  });
});
