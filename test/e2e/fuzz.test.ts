import { resolveAll, Scripts } from '@plaza/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aMessage, aPost, aUser, type TestUser } from '../support/mothers.js';
import { EXAMPLES, inputFieldsOf, operationsOf, requestOf, seedFixtures, send, withField } from '../support/operation-examples.js';
import { contents, rowCounts } from '../support/snapshot.js';
import { startTestServer, type TestServer } from '../support/server.js';

/**
 * DESIGN.md §4: every operation survives random, truncated, wrong-typed and oversized input with a 4xx
 * JSON error, never a 500, and a refused request changes nothing. The operations come from index.php,
 * so a new script is fuzzed the day it is declared.
 */
interface Endpoint {
  script: string;
  method: string;
  selector: { action?: string; path?: string; has?: string[] };
  query_fields: string[];
  body_fields: string[];
}

// 999999 is a well-formed id of nothing (test/e2e/unknown-ids.test.ts holds each id to a 404).
const NASTY: unknown[] = [
  null,
  true,
  -1,
  0,
  1.5,
  999_999,
  1e309,
  '',
  ' ',
  'x'.repeat(20_000),
  '💥\u0000',
  ['a'],
  [1, 2],
  {},
  { $gt: 1 },
  '1; DROP TABLE users',
  '../../etc/passwd',
];
const NASTY_QUERY = ['', '-1', '0', 'abc', '1.5', '999999', '99999999999999999999', '%00', 'x'.repeat(3000), '1 OR 1=1'];

let t: TestServer;
let me: TestUser;
let other: TestUser;
let endpoints: Endpoint[];

beforeAll(async () => {
  t = await startTestServer();
  me = await aUser(t.api);
  other = await aUser(t.api);
  // Some real rows, so that ids 1 and 2 exist for the operations that look them up.
  await aPost(t.api, me, { content: 'fuzz target' });
  await aMessage(t.api, me, other, { content: 'hi' });
  endpoints = (await t.api.get('index.php')).body.endpoints;
});
afterAll(() => t.close());

function pathValues(pattern: string | undefined): string[] {
  if (pattern === undefined) return [''];
  if (!pattern.includes(':')) return [pattern];
  return ['1', '2', '999999'].map((id) => pattern.replace(/:[a-z_]+/g, id));
}

function urlFor(e: Endpoint, path: string, query: Record<string, string>): string {
  const params = new URLSearchParams(query);
  if (e.selector.action) params.set('action', e.selector.action);
  if (e.selector.path !== undefined) params.set('path', path);
  const qs = params.toString();
  return `${e.script}${qs ? `?${qs}` : ''}`;
}

describe('fuzz pass over every declared operation', () => {
  it('never answers 5xx and always answers JSON with a success flag', async () => {
    expect(endpoints.length).toBeGreaterThan(40);
    const failures: string[] = [];
    // Counted once after each request, which is also the next one's "before" (MySQL is slow enough).
    let counts = await rowCounts(t.database.db);
    const check = async (method: string, url: string, body: unknown, raw?: string, headers?: Record<string, string>) => {
      const before = counts;
      const res = await t.api.request(method, url, method === 'GET' ? undefined : body, { token: me.token, raw, headers });
      counts = await rowCounts(t.database.db);
      const sent = `${headers ? `${JSON.stringify(headers)} ` : ''}${raw ?? JSON.stringify(body)?.slice(0, 80)}`;
      const what = `${method} ${url.slice(0, 120)} ${sent} -> ${res.status}`;
      // A download (export.php) answers its file, not the JSON envelope.
      if (res.status === 200 && /^attachment;/.test(res.headers.get('content-disposition') ?? '')) return res;
      if (res.status >= 500 || typeof res.body !== 'object' || res.body === null || typeof res.body.success !== 'boolean') {
        failures.push(`${what} ${JSON.stringify(res.body).slice(0, 200)}`);
      } else if (res.status >= 400 || res.body.success === false) {
        // Refused (a 4xx, or a 200 refusal of docs/decisions/0002): not a row more or less anywhere.
        const changed = Object.keys(counts).filter((table) => counts[table] !== before[table]);
        if (changed.length) failures.push(`${what}, yet rows changed in ${changed.join(', ')}`);
      }
      return res;
    };
    for (const e of endpoints) {
      if (e.script === 'auth.php') continue; // covered by the auth suite; would rotate the token under test
      for (const path of pathValues(e.selector.path)) {
        const required = Object.fromEntries((e.selector.has ?? []).map((k) => [k, '1']));
        // Every query field with each odd value, the required ones held at a plausible value.
        for (const field of e.query_fields.filter((f) => f !== 'path' && f !== 'action')) {
          for (const v of NASTY_QUERY) await check(e.method, urlFor(e, path, { ...required, [field]: v }), {});
        }
        if (e.method === 'GET') continue;
        const url = urlFor(e, path, required);
        // Every body field with each odd value.
        for (const field of e.body_fields.filter((f) => f !== 'action')) {
          for (const v of NASTY) {
            const body: Record<string, unknown> = { [field]: v };
            if (e.selector.action) body.action = e.selector.action;
            await check(e.method, url, body);
          }
        }
        // Whole bodies that are not objects, or not JSON at all.
        for (const raw of ['null', '[]', '"x"', '42', '{"a":', 'not json', '{"content": "\ud800"}'])
          await check(e.method, url, undefined, raw);
        // Plain JSON under a Content-Encoding it is not in (400), and encodings nobody decodes (415).
        for (const [encoding, status] of [
          ['gzip', 400],
          ['deflate', 400],
          ['br', 400],
          ['compress', 415],
          ['gzip, x-unknown', 415],
        ] as const) {
          const res = await check(e.method, url, undefined, '{"content": "x"}', { 'Content-Encoding': encoding });
          if (res.status !== status) failures.push(`${e.method} ${url} Content-Encoding: ${encoding} -> ${res.status}, expected ${status}`);
        }
      }
    }
    expect(failures).toEqual([]);
  }, 600_000); // thousands of requests, each followed by a row count: over 4 minutes on MariaDB under load
});

/**
 * Media references (DESIGN.md §2 "Media paths"): whatever a client sends as `media`, `avatar`,
 * `banner`… must name a file the upload naming can produce. Traversal, other folders, foreign hosts and
 * executable extensions are refused with a 400 naming the field, and nothing is stored, on every
 * operation that takes one (found by field name in the registry).
 */
const MEDIA_FIELD = /^(media|avatar|banner|thumbnail)$|image$/;
const ODD_MEDIA = [
  '../../etc/passwd',
  '..',
  '/etc/passwd',
  'uploads/../../etc/passwd',
  'uploads/posts/../../../etc/media_x.jpg',
  '..%2F..%2Fetc%2Fpasswd',
  'C:\\Windows\\win.ini',
  'media_x.php',
  'avatar_x.jpg.php',
  'messages_x.jpg\u0000.png',
  'https://evil.example/pixel.gif',
  '//evil.example/uploads/avatar_x.jpg',
  'javascript:alert(1)',
  'file:///etc/passwd',
  'uploads/stories/media_x.jpg',
  'x'.repeat(300),
];

describe('odd media references', () => {
  it('are refused with a 400 naming the field, and change nothing, on every operation taking one', async () => {
    const f = await seedFixtures(t.api);
    const operations = operationsOf(resolveAll(t.plaza.container, Scripts));
    const taking = operations.flatMap(({ script, o, label }) =>
      inputFieldsOf(o)
        .filter((field) => field.where === 'body' && MEDIA_FIELD.test(field.name))
        .map((field) => ({ script, o, label, field })),
    );
    // messages, group messages, group avatars, profiles (avatar, banner), posts, stories.
    expect(taking.length).toBeGreaterThanOrEqual(8);
    const failures: string[] = [];
    for (const { script, o, label, field } of taking) {
      const build = EXAMPLES[label];
      if (!build) {
        failures.push(`${label}: no example in test/support/examples/ (its context's file)`);
        continue;
      }
      for (const odd of ODD_MEDIA) {
        const { url, body } = requestOf(script, o, withField(build(f), field, odd));
        const before = await contents(t.database.db);
        const res = await send(t.api, o, url, body, f.me.token);
        const what = `${label} ${field.name}=${JSON.stringify(odd)}`;
        const named = (res.body?.details ?? []).some((d: { field: string }) => d.field === field.name);
        if (res.status !== 400 || !named) failures.push(`${what}: ${res.status} ${JSON.stringify(res.body).slice(0, 160)}`);
        else if ((await contents(t.database.db)) !== before) failures.push(`${what}: refused, yet the database changed`);
      }
    }
    expect(failures).toEqual([]);
  }, 120_000);
});
