import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { compileErrors, validate } from '@readme/openapi-parser';
import openapiTS, { astToString } from 'openapi-typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildOpenApiDocument } from '@plaza/adapters-http';
import { RECORDED_EXAMPLES_FILE } from '../../packages/adapters-http/src/http/api-docs.js';
import type { AnyOperation, Script } from '../../packages/adapters-http/src/http/operation.js';
import { startTestServer, type TestServer } from '../support/server.js';

type Json = Record<string, any>;
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** Operations the suite cannot record an example of, and why: each is checked to be still without one. */
const WITHOUT_EXAMPLE: Record<string, string> = {
  'export.get': 'answers a file (a download), not the JSON envelope: there is no JSON answer to show',
  'upload.post': 'takes multipart/form-data with a file, which the suite sends with its own form client, not the recording JSON one',
  'lives.postWebhook': "is the media server's call, signed over its exact raw bytes, which the suite sends as raw requests",
};

let t: TestServer;
let doc: Json;
let endpoints: Json[];
/** Every OpenAPI operation with its path key and method. */
let operations: { key: string; method: string; op: Json }[];

beforeAll(async () => {
  t = await startTestServer();
  const res = await t.api.get('openapi.json');
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  doc = res.body;
  const index = await t.api.get('index.php');
  expect(index.status).toBe(200);
  endpoints = index.body.endpoints;
  operations = Object.entries(doc.paths as Record<string, Json>).flatMap(([key, item]) =>
    Object.entries(item)
      .filter(([m]) => METHODS.includes(m))
      .map(([method, op]) => ({ key, method, op: op as Json })),
  );
});
afterAll(() => t.close());

/** A raw request, so that `..` and `%2e%2e` reach the server exactly as written (fetch normalises them). */
function rawGet(path: string, headers: Record<string, string> = {}): Promise<{ status: number; type: string | undefined }> {
  const { hostname, port } = new URL(t.url);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ hostname, port, path, method: 'GET', headers }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, type: res.headers['content-type'] }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('openapi.json', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    expect(doc.openapi).toMatch(/^3\.1\./);
    const result = await validate(structuredClone(doc) as never);
    expect(result.valid, result.valid ? '' : compileErrors(result)).toBe(true);
    expect(result.warnings).toEqual([]);
  });

  it('is served under /v1/ too, identically', async () => {
    const res = await t.api.get('/v1/openapi.json');
    expect(res.status).toBe(200);
    expect(res.body).toEqual(doc);
  });

  it('points its server at the public URL', () => {
    expect(doc.servers).toEqual([{ url: 'http://plaza.test/api/v1' }]);
  });

  it('describes every operation of index.php exactly once, with a unique operationId', () => {
    expect(endpoints.length).toBeGreaterThan(50);
    expect(operations).toHaveLength(endpoints.length);
    const ids = operations.map((o) => o.op.operationId);
    expect(ids.every((id) => typeof id === 'string' && /^[a-zA-Z]+\.[a-zA-Z0-9]+$/.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    for (const e of endpoints) {
      const matches = operations.filter(
        (o) =>
          o.op['x-plaza-script'] === e.script &&
          o.method === e.method.toLowerCase() &&
          JSON.stringify(o.op['x-plaza-selector']) === JSON.stringify(e.selector),
      );
      expect(matches, `${e.method} ${e.script} ${JSON.stringify(e.selector)}`).toHaveLength(1);
      const [{ key, op }] = matches;
      // The path key is a URL the server answers, the selector written as path segments (0170); the
      // query form the clients send is named beside it.
      const name = e.script.replace(/\.php$/, '');
      expect(key === `/${e.script}` || key.startsWith(`/${e.script}/`)).toBe(true);
      expect(key).not.toContain('?');
      const form = op['x-plaza-query-form'];
      expect(form.startsWith(`/${e.script}`)).toBe(true);
      if (e.selector.action) {
        expect(key).toContain(`/action/${e.selector.action}`);
        expect(new URL(form, 'http://x').searchParams.get('action')).toBe(e.selector.action);
      }
      if (e.selector.path) {
        expect(key.endsWith(`/path/${e.selector.path.replace(/:(\w+)/g, '{$1}')}`)).toBe(true);
        expect(form).toContain(`path=${e.selector.path.replace(/:(\w+)/g, '{$1}')}`);
      }
      for (const k of e.selector.has ?? []) {
        expect(key).toContain(`/${k}/{${k}}`);
        expect(form).toContain(`${k}={${k}}`);
      }
      expect(
        op.operationId.startsWith(`${name.replace(/_(\w)/g, (_: string, c: string) => c.toUpperCase())}.${e.method.toLowerCase()}`),
      ).toBe(true);
      expect(op.summary).toBe(e.summary);
      expect(op['x-rate-limit-group']).toBe(e.rate_limit_group);
      expect(Object.keys(op.responses)).toContain(String(e.success_status));
      // Declared query fields are parameters (in: path when the selector carries them).
      const params = (op.parameters ?? []).map((p: Json) => p.name);
      for (const f of e.query_fields) if (f !== 'action' && f !== 'path') expect(params, `${op.operationId} ${f}`).toContain(f);
      if (e.body_fields.length) {
        const content = op.requestBody?.content ?? {};
        // upload.php takes multipart/form-data, with its file part documented beside the fields.
        if (e.script === 'upload.php') expect(Object.keys(content)).toEqual(['multipart/form-data']);
        else expect(Object.keys(content)).toEqual(['application/json', 'application/x-www-form-urlencoded']);
      }
    }
  });

  it('turns ?path= captures and has-keys into required path parameters', () => {
    const byId = new Map(operations.map((o) => [o.op.operationId, o]));
    const members = operations.find((o) => o.op['x-plaza-selector']?.path === ':id/members/:user_id');
    expect(members?.key).toBe('/message_groups.php/path/{id}/members/{user_id}');
    expect(members?.op['x-plaza-query-form']).toBe('/message_groups.php?path={id}/members/{user_id}');
    const pathParams = members!.op.parameters.filter((p: Json) => p.in === 'path');
    expect(pathParams.map((p: Json) => [p.name, p.required])).toEqual([
      ['id', true],
      ['user_id', true],
    ]);
    const thread = byId.get('messages.getWithUserId');
    expect(thread?.key).toBe('/messages.php/user_id/{user_id}');
    expect(thread!.op.parameters.find((p: Json) => p.name === 'user_id')).toMatchObject({ in: 'path', required: true });
    expect(byId.get('friends.postSend')?.key).toBe('/friends.php/action/send');
    expect(byId.get('friends.postSend')?.op['x-plaza-query-form']).toBe('/friends.php?action=send');
    expect(byId.get('messages.get')?.key).toBe('/messages.php');
  });

  it('states authentication per operation', () => {
    expect(doc.components.securitySchemes.bearerAuth).toEqual(expect.objectContaining({ type: 'http', scheme: 'bearer' }));
    for (const e of endpoints) {
      const { op } = operations.find(
        (o) =>
          o.op['x-plaza-script'] === e.script &&
          o.method === e.method.toLowerCase() &&
          JSON.stringify(o.op['x-plaza-selector']) === JSON.stringify(e.selector),
      )!;
      const label = op.operationId;
      if (e.auth === 'required') {
        expect(op.security.length, label).toBeGreaterThan(0);
        expect(
          op.security.some((s: Json) => Object.keys(s).length === 0),
          label,
        ).toBe(false);
        expect(
          op.security.some((s: Json) => 'bearerAuth' in s),
          label,
        ).toBe(true);
        expect(op.responses['401'], label).toMatchObject({ $ref: '#/components/responses/Unauthorized' });
        expect(op['x-plaza-error-codes']['401'], label).toContain('unauthenticated');
      } else if (e.auth === 'optional') {
        expect(op.security, label).toEqual(expect.arrayContaining([{}, { bearerAuth: [] }]));
      } else {
        expect(op.security, label).toEqual([]);
        // Nothing to authenticate: a 401 only where the operation reads a token itself (auth.php refresh).
        expect(op['x-plaza-error-codes']['401'] ?? [], label).not.toContain('unauthenticated');
      }
    }
  });

  it('wraps success payloads in the envelope and shares the error responses', () => {
    for (const { op } of operations) {
      const [status] = Object.keys(op.responses).filter((s) => /^2\d\d$/.test(s));
      const success = op.responses[status];
      for (const h of ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'])
        expect(success.headers[h], op.operationId).toBeDefined();
      if (op['x-plaza-download']) {
        // A file download (export.php): its content types, as binary, and no envelope.
        for (const type of op['x-plaza-download'])
          expect(success.content[type].schema, op.operationId).toEqual({ type: 'string', format: 'binary' });
        continue;
      }
      const schema = success.content['application/json'].schema;
      const envelope = schema.allOf ? schema.allOf[0] : schema;
      expect(envelope.properties.success, op.operationId).toEqual({ const: true });
      expect(envelope.required, op.operationId).toContain('success');
      for (const s of ['400', '405', '429', '503', 'default'])
        expect(op.responses[s]?.$ref, `${op.operationId} ${s}`).toMatch(/^#\/components\/responses\//);
      // Every failure status names the codes it carries, in its description and in x-plaza-error-codes.
      for (const [s, r] of Object.entries(op.responses as Record<string, Json>)) {
        if (s === status || s === 'default') continue;
        expect(r.$ref, `${op.operationId} ${s}`).toMatch(/^#\/components\/responses\//);
        const codes = op['x-plaza-error-codes'][s];
        expect(codes.length, `${op.operationId} ${s}`).toBeGreaterThan(0);
        for (const code of codes) expect(r.description, `${op.operationId} ${s}`).toContain(`\`${code}\``);
      }
      expect(JSON.stringify(schema)).not.toContain('x-schema-unrepresentable');
    }
    expect(doc.components.responses.TooManyRequests.headers['Retry-After']).toBeDefined();
    expect(doc.components.schemas.Error.required).toEqual(['success', 'error', 'message', 'code']);
    // Schemas embedded anywhere must not point at a $defs of their own: refs resolve from the document root.
    expect(JSON.stringify(doc)).not.toContain('"#/$defs/');
  });

  it('lists the statuses each operation answers with their codes: from the declaration and from the suite', () => {
    const byId = new Map(operations.map((o) => [o.op.operationId as string, o.op]));
    const codes = (id: string, status: string): string[] => byId.get(id)?.['x-plaza-error-codes']?.[status] ?? [];
    // The success status is the declared one: posts.php creates with 200, group_posts.php with 201.
    expect(Object.keys(byId.get('posts.post')!.responses)).toEqual(expect.arrayContaining(['200']));
    expect(Object.keys(byId.get('groupPosts.post')!.responses)).toEqual(expect.arrayContaining(['201']));
    expect(byId.get('groupPosts.post')!.responses['200']).toBeUndefined();
    // A body: 413 and 415; authentication: 401 and the ban's 403; every operation: 429 and 503.
    expect(codes('posts.post', '413')).toEqual(['payload_too_large']);
    expect(codes('posts.post', '415')).toEqual(expect.arrayContaining(['unsupported_encoding', 'unsupported_media_type']));
    expect(codes('posts.post', '403')).toEqual(expect.arrayContaining(['banned', 'suspended']));
    expect(codes('posts.getWithId', '413')).toEqual([]);
    expect(codes('auth.postLogin', '401')).toEqual([]);
    expect(codes('auth.postLogin', '403')).toEqual(['https_required']);
    for (const { op } of operations) {
      expect(op['x-plaza-error-codes']['429'], op.operationId).toContain('rate_limited');
      expect(op['x-plaza-error-codes']['400'], op.operationId).toContain('invalid_input');
    }
    // What the suite saw: an unknown post is a 404 with its domain code.
    expect(codes('posts.getWithId', '404').length).toBeGreaterThan(0);
    // Every code an operation lists is in the one table of codes (the README's), with that status.
    const table = new Map((doc['x-plaza-error-codes'] as { code: string; statuses: number[] }[]).map((r) => [r.code, r.statuses]));
    expect(table.get('rate_limited')).toEqual([429]);
    const unknown = operations.flatMap(({ op }) =>
      Object.entries(op['x-plaza-error-codes'] as Record<string, string[]>).flatMap(([s, list]) =>
        list.filter((c) => !table.get(c)?.includes(Number(s))).map((c) => `${op.operationId} ${s} ${c}`),
      ),
    );
    expect([...new Set(unknown.map((u) => u.split(' ').slice(1).join(' ')))]).toEqual([]);
    expect(doc.components.responses.Unauthorized.headers['WWW-Authenticate']).toBeDefined();
    const statuses = new Set(operations.flatMap(({ op }) => Object.keys(op.responses)));
    for (const s of ['400', '401', '403', '404', '405', '409', '413', '415', '429', '503']) expect(statuses, s).toContain(s);
  });

  it('embeds an example recorded from the test suite for every operation but the listed exceptions', () => {
    const missing: string[] = [];
    for (const { op } of operations) {
      const [status] = Object.keys(op.responses).filter((s) => /^2\d\d$/.test(s));
      const example = op.responses[status].content['application/json']?.examples?.recorded;
      if (!example) {
        missing.push(op.operationId);
        continue;
      }
      expect(example.summary, op.operationId).toMatch(/^Recorded from test\//);
      expect(example.value.success, op.operationId).toBe(true);
    }
    expect(missing.filter((id) => !(id in WITHOUT_EXAMPLE)).sort()).toEqual([]);
    // An exception that has an example since leaves the list.
    expect(Object.keys(WITHOUT_EXAMPLE).filter((id) => !missing.includes(id))).toEqual([]);
    // Request bodies and query parameters carry the recorded request too.
    const login = operations.find((o) => o.op.operationId === 'auth.postLogin')!.op;
    expect(login.requestBody.content['application/json'].examples.recorded.value).toMatchObject({ password: expect.any(String) });
  });

  it('records only operations that exist, with no secret or token in them', () => {
    const recorded = JSON.parse(readFileSync(RECORDED_EXAMPLES_FILE, 'utf8')) as { operations: Record<string, Json> };
    const ids = new Set(operations.map((o) => o.op.operationId));
    expect(Object.keys(recorded.operations).filter((id) => !ids.has(id))).toEqual([]);
    const text = JSON.stringify(recorded);
    // Tokens are 43+ characters of base64url or hex; none survives the normalisation.
    expect(text.match(/[A-Za-z0-9_-]{40,}/g) ?? []).toEqual([]);
    expect(text).not.toMatch(/\d{4}-\d{2}-\d{2} (?!12:00:00)\d{2}:\d{2}:\d{2}/);
    // The document stays light enough for a browser viewer.
    expect(JSON.stringify(doc).length).toBeLessThan(6_000_000);
  });

  it('loads in a code generator (openapi-typescript)', async () => {
    const ts = astToString(await openapiTS(structuredClone(doc) as never));
    expect(ts).toContain('export interface paths');
    expect(ts).toContain('"/friends.php/action/send"');
    expect(ts).toContain('"/message_groups.php/path/{id}/messages"');
    expect(ts).toContain('"messages.getWithUserId"');
    expect(ts).toContain('"auth.postLogin"');
  });

  it('answers a conditional request with 304', async () => {
    const first = await fetch(`${t.url}/api/v1/openapi.json`);
    const etag = first.headers.get('etag');
    expect(etag).toBeTruthy();
    await first.arrayBuffer();
    // Not fetch: a conditional fetch() adds `Cache-Control: no-cache`, which forbids the 304.
    expect((await rawGet('/api/v1/openapi.json', { 'If-None-Match': etag! })).status).toBe(304);
    const css = await fetch(`${t.url}/api/v1/docs/swagger-ui.css`);
    await css.arrayBuffer();
    expect((await rawGet('/api/v1/docs/swagger-ui.css', { 'If-None-Match': css.headers.get('etag')! })).status).toBe(304);
  });
});

describe('/api/v1/docs', () => {
  it('is an HTML page that loads only local assets, each with its content type', async () => {
    const res = await fetch(`${t.url}/api/v1/docs`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
    const html = await res.text();
    expect(html).not.toMatch(/https?:\/\//);
    expect(html).not.toMatch(/(src|href)="\/\//);
    const refs = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
    expect(refs).toEqual(expect.arrayContaining(['./docs/swagger-ui-bundle.js', './docs/swagger-ui.css', './openapi.json']));
    const expected: Record<string, RegExp> = {
      '.js': /^text\/javascript/,
      '.css': /^text\/css/,
      '.png': /^image\/png$/,
      '.json': /^application\/json/,
    };
    for (const ref of refs) {
      const url = new URL(ref, `${t.url}/api/v1/docs`);
      expect(url.origin).toBe(t.url);
      const asset = await fetch(url);
      expect(asset.status, ref).toBe(200);
      const ext = /\.\w+$/.exec(url.pathname)![0];
      expect(asset.headers.get('content-type'), ref).toMatch(expected[ext]);
      expect(asset.headers.get('cache-control'), ref).toBeTruthy();
      await asset.arrayBuffer();
    }
  });

  it('configures the viewer with the local document and no external validator', async () => {
    const res = await fetch(`${t.url}/api/v1/docs/plaza-docs.js`);
    const js = await res.text();
    expect(js).toContain("'openapi.json'");
    expect(js).toContain('validatorUrl: null');
    expect(js).not.toMatch(/https?:\/\//);
  });

  it('caches the packaged assets', async () => {
    const res = await fetch(`${t.url}/api/v1/docs/swagger-ui-bundle.js`);
    expect(res.headers.get('cache-control')).toMatch(/max-age=\d+/);
    expect(res.headers.get('etag')).toBeTruthy();
    await res.arrayBuffer();
  });

  it('serves only its allow-list: traversal and other package files are 404', async () => {
    for (const path of [
      '/api/v1/docs/..%2F..%2F..%2Fpackage.json',
      '/api/v1/docs/%2e%2e%2fpackage.json',
      '/api/v1/docs/../../../package.json',
      '/api/v1/docs/..%5c..%5cpackage.json',
      '/api/v1/docs/package.json',
      '/api/v1/docs/index.html',
      '/api/v1/docs/swagger-initializer.js',
      '/api/v1/docs/constructor',
      '/api/v1/docs/__proto__',
    ]) {
      const res = await rawGet(path);
      expect(res.status, path).toBe(404);
      expect(res.type, path).toMatch(/^application\/json/);
    }
  });

  it('redirects the trailing-slash form so that relative asset URLs resolve', async () => {
    const res = await fetch(`${t.url}/api/v1/docs/`, { redirect: 'manual' });
    expect(res.status).toBe(301);
    expect(new URL(res.headers.get('location')!, `${t.url}/api/v1/docs/`).pathname).toBe('/api/v1/docs');
  });

  it('is served under /v1/ too', async () => {
    const res = await fetch(`${t.url}/v1/docs`);
    expect(res.status).toBe(200);
    await res.text();
  });

  // A real browser, under the page's Content-Security-Policy, with the network of other hosts unused.
  const chromium = '/usr/bin/chromium';
  it.skipIf(!existsSync(chromium))(
    'renders the operations in a browser (skipped without /usr/bin/chromium)',
    async () => {
      const args = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--enable-logging=stderr', '--v=0'];
      const { stdout, stderr } = await new Promise<{ stdout: string; stderr: string }>((resolve, reject) =>
        execFile(
          chromium,
          [...args, '--virtual-time-budget=90000', '--dump-dom', `${t.url}/api/v1/docs`],
          { maxBuffer: 64 * 1024 * 1024, timeout: 150_000 },
          (error, out, err) => (error && !out ? reject(error) : resolve({ stdout: out, stderr: err })),
        ),
      );
      // Swagger UI renders tag by tag; on a loaded machine the DOM may be dumped before the last tags
      // are drawn. What matters is that the viewer loads the document and draws its operations.
      const rendered = [...stdout.matchAll(/opblock-summary-operation-id">([^<]+)</g)].map((m) => m[1]);
      expect(rendered.length).toBeGreaterThan(0);
      expect(operations.map((o) => o.op.operationId)).toEqual(expect.arrayContaining(rendered));
      expect(stderr).not.toMatch(/Refused to|Content Security Policy/);
    },
    200_000,
  );
});

describe('buildOpenApiDocument on unusual declarations', () => {
  const info = { title: 'T', version: '1', serverUrl: 'https://example.org/' };
  const handle = async () => ({});
  const operation = (o: Partial<AnyOperation>): AnyOperation =>
    ({ method: 'GET', auth: 'none', summary: 's', response: z.object({}), handle, ...o }) as AnyOperation;

  it('stays valid with recursive, strict and registered response schemas', async () => {
    const node: z.ZodType = z.object({
      name: z.string(),
      get children() {
        return z.array(node);
      },
    });
    const inner = z.object({ x: z.string() }).meta({ id: 'TestInner' });
    const tag = z.object({ label: z.string(), inner }).meta({ id: 'TestTag' });
    const script: Script = {
      name: 'odd_things',
      operations: [
        operation({ select: { path: 'tree/:id' }, response: z.object({ tree: node, again: node }) }),
        operation({ select: { action: 'strict' }, response: z.strictObject({ ok: z.boolean() }) }),
        operation({ select: { action: 'tags' }, response: z.object({ first: tag, all: z.array(tag) }) }),
        operation({ select: { action: 'root' }, response: node as never }),
        operation({ select: { action: 'tag' }, response: tag as never }),
        operation({ method: 'POST', select: { action: 'go', has: ['x'] }, auth: 'optional', body: z.object({ n: z.number() }) }),
        operation({ method: 'POST', select: { action: 'go', has: ['y'] }, auth: 'optional', body: z.object({ n: z.number() }) }),
        operation({ method: 'POST', select: { action: 'go' }, auth: 'optional', body: z.object({ n: z.number() }) }),
      ],
    };
    const d = buildOpenApiDocument([script], info) as Json;
    const result = await validate(structuredClone(d) as never);
    expect(result.valid, result.valid ? '' : compileErrors(result)).toBe(true);
    expect(d.servers).toEqual([{ url: 'https://example.org/api/v1' }]);
    expect(JSON.stringify(d)).not.toContain('"#/$defs/');
    expect(JSON.stringify(d)).not.toContain('"$ref":"#"');
    // A registered schema is one shared component, also when it nests another one.
    expect(d.components.schemas.TestTag).toEqual(expect.objectContaining({ type: 'object' }));
    expect(d.components.schemas.TestTag.properties.inner).toEqual({ $ref: '#/components/schemas/TestInner' });
    expect(
      Object.keys(d.components.schemas)
        .filter((k) => k.startsWith('TestTag') || k.startsWith('TestInner'))
        .sort(),
    ).toEqual(['TestInner', 'TestTag']);
    const tagged = d.paths['/odd_things.php/action/tag'].get.responses['200'].content['application/json'].schema;
    expect(tagged.allOf[1]).toEqual({ $ref: '#/components/schemas/TestTag' });
    const root = d.paths['/odd_things.php/action/root'].get.responses['200'].content['application/json'].schema.allOf[1].$ref;
    expect(d.components.schemas[root.split('/').pop()].properties.children.items).toEqual({ $ref: root });
    const strict = d.paths['/odd_things.php/action/strict'].get.responses['200'].content['application/json'].schema;
    expect(strict.allOf[0].properties.success).toEqual({ const: true });
    const go = d.paths['/odd_things.php/action/go/x/{x}'].post;
    expect(go.operationId).toBe('oddThings.postGoWithX');
    expect(go.security).toEqual([{}, { bearerAuth: [] }]);
    expect(d.paths['/odd_things.php/action/go'].post.description).toContain('none of `x`, `y`');
    expect(go.requestBody.required).toBe(true);
    expect(d.paths['/odd_things.php/path/tree/{id}'].get.operationId).toBe('oddThings.getTreeById');
    const ts = astToString(await openapiTS(structuredClone(d) as never));
    expect(ts).toContain('"oddThings.getTreeById"');
  });

  it('refuses two operations it could not tell apart', () => {
    const same: Script = { name: 'x', operations: [operation({ select: { action: 'a' } }), operation({ select: { action: 'a' } })] };
    expect(() => buildOpenApiDocument([same], info)).toThrow(/operationId x\.getA/);
    const twins: Script[] = [
      { name: 'a_b', operations: [operation({})] },
      { name: 'aB', operations: [operation({})] },
    ];
    expect(() => buildOpenApiDocument(twins, info)).toThrow(/operationId aB\.get/);
  });
});
