import { RATE_LIMIT_GROUPS, type RateLimitGroup } from '@plaza/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiResponse } from '../support/client.js';
import { aUser, type TestUser } from '../support/mothers.js';
import { startTestServer } from '../support/server.js';

/**
 * Sweeps over every operation index.php lists, so that a script declared tomorrow is covered the day
 * it is declared:
 * - every `auth: "required"` operation refuses a request without a token (or with a bogus one) with a
 *   401 JSON error;
 * - every response carries `X-RateLimit-Limit` of the operation's group. Each group gets a limit of its
 *   own (auth=101, posts=102, …), so a request counted in another group, or one that never reached its
 *   operation (the dispatcher counts those in `default`), shows up as the wrong figure.
 */
interface Endpoint {
  script: string;
  method: string;
  selector: { action?: string; path?: string; has?: string[] };
  auth: 'required' | 'optional' | 'none';
  rate_limit_group: RateLimitGroup;
  query_fields: string[];
  body_fields: string[];
}

// Large enough that the sweeps' own requests (two per operation, by one address) never exhaust a group.
const LIMITS = Object.fromEntries(RATE_LIMIT_GROUPS.map((g, i) => [g, 1001 + i])) as Record<RateLimitGroup, number>;

// The operations are needed when the tests are collected, so this file's server boots at collection.
const t = await startTestServer({ env: { API_RATE_LIMITS: RATE_LIMIT_GROUPS.map((g) => `${g}=${LIMITS[g]}`).join(',') } });
afterAll(() => t.close());
const index = await t.api.get('index.php');
if (index.status !== 200 || !Array.isArray(index.body?.endpoints))
  throw new Error(`index.php answered ${index.status}: ${JSON.stringify(index.body)}`);
const endpoints = index.body.endpoints as Endpoint[];

/** `GET users.php?id=1`: the request that reaches the operation, and the test's name. */
function requestFor(e: Endpoint): { method: string; url: string; body: unknown; label: string } {
  const params = new URLSearchParams();
  // `?action=` selects for every method; a body `action` is only one more way to say it.
  if (e.selector.action) params.set('action', e.selector.action);
  if (e.selector.path !== undefined) params.set('path', e.selector.path.replace(/:\w+/g, '1'));
  for (const key of e.selector.has ?? []) params.set(key, '1');
  const qs = params.toString().replace(/%2F/g, '/');
  const url = `${e.script}${qs ? `?${qs}` : ''}`;
  return { method: e.method, url, body: e.method === 'GET' ? undefined : {}, label: `${e.method} ${url}` };
}

const cases = endpoints.map((e) => ({ ...requestFor(e), e }));

/** Answers of the dispatcher meaning the request never reached an operation. */
function missedOperation(res: ApiResponse): string | null {
  const code = res.body?.code;
  if (res.status === 405) return '405: no operation of this method';
  if (['unknown_action', 'unknown_path', 'unknown_script', 'unknown_endpoint'].includes(code)) return `${res.status} ${code}`;
  if (res.status === 400 && /send exactly one of/.test(res.body?.message ?? '')) return `400: selector not matched (${res.body.message})`;
  return null;
}

function summary(res: ApiResponse): string {
  return `${res.status} ${JSON.stringify(res.body).slice(0, 300)}`;
}

describe('registry', () => {
  it('lists every operation with a known rate-limit group and auth mode', () => {
    expect(endpoints.length).toBeGreaterThan(40);
    for (const e of endpoints) {
      expect(RATE_LIMIT_GROUPS, `${e.method} ${e.script}`).toContain(e.rate_limit_group);
      expect(['required', 'optional', 'none'], `${e.method} ${e.script}`).toContain(e.auth);
    }
    // Each request built here reaches exactly one operation.
    const labels = cases.map((c) => c.label);
    expect(labels.filter((l, i) => labels.indexOf(l) !== i)).toEqual([]);
  });

  it('puts reads in `reads` and the writes of a script named after a spec group in that group', () => {
    // docs/decisions/0005: the spec's groups count writes; reads count apart unless costly (export).
    const wrong = endpoints.flatMap((e) => {
      const named = e.script.replace(/\.php$/, '') as RateLimitGroup;
      const expected = e.method === 'GET' ? ['reads', 'export'] : (RATE_LIMIT_GROUPS as readonly string[]).includes(named) ? [named] : null;
      return expected && !expected.includes(e.rate_limit_group)
        ? [`${e.method} ${e.script} ${JSON.stringify(e.selector)}: ${e.rate_limit_group}, expected ${expected.join(' or ')}`]
        : [];
    });
    expect(wrong).toEqual([]);
  });
});

describe('every operation that requires authentication answers 401 without a valid token', () => {
  const required = cases.filter((c) => c.e.auth === 'required');

  // Plain loops rather than it.each: its `$label` names cut long URLs short.
  for (const { label, method, url, body, e } of required)
    it(label, async () => {
      const attempts = [
        { how: 'without a token', token: undefined, code: 'unauthenticated' },
        { how: 'with a bogus token', token: 'not-a-token-0123456789', code: 'invalid_token' },
      ];
      for (const { how, token, code } of attempts) {
        const res = await t.api.request(method, url, body, { token });
        expect(res.status, `${how}: ${summary(res)}`).toBe(401);
        expect(res.headers.get('content-type'), how).toMatch(/^application\/json/);
        expect(res.body, how).toMatchObject({ success: false, code });
        // Refused, yet counted (by address) in the operation's own group.
        expect(res.headers.get('x-ratelimit-limit'), `${how}: X-RateLimit-Limit`).toBe(String(LIMITS[e.rate_limit_group]));
      }
    });
});

describe('every operation is counted in its own rate-limit group', () => {
  let me: TestUser;
  beforeAll(async () => {
    me = await aUser(t.api);
  });

  for (const { label, method, url, body, e } of cases)
    it(label, async () => {
      // `auth: "none"` operations go without: they authenticate nobody, and auth.php's refresh and
      // revoke read the bearer token themselves and would spend it. They are counted by address.
      const res = await t.api.request(method, url, body, e.auth === 'none' ? {} : { token: me.token });
      expect(missedOperation(res), `the request did not reach the operation: ${summary(res)}`).toBeNull();
      if (e.auth !== 'none') expect(res.status, `the token was refused: ${summary(res)}`).not.toBe(401);
      const limit = res.headers.get('x-ratelimit-limit');
      const group = RATE_LIMIT_GROUPS.find((g) => String(LIMITS[g]) === limit) ?? `(unknown: ${limit})`;
      expect(group, `counted in "${group}", declared "${e.rate_limit_group}" (${summary(res)})`).toBe(e.rate_limit_group);
      expect(Number(res.headers.get('x-ratelimit-remaining'))).toBeLessThan(LIMITS[e.rate_limit_group]);
    });
});
