import { execFile } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aUser, type TestUser } from '../support/mothers.js';
import { startTestServer, type TestServer } from '../support/server.js';

/**
 * The OpenAPI document is what a generator needs (docs/decisions/0170): openapi-typescript turns the
 * served /api/v1/openapi.json into types, tsc checks a client program written against them with
 * openapi-fetch (test/e2e/openapi-client/calls.mts), and that program calls twelve operations of six
 * scripts on a running server, by their path keys, without a line of glue.
 */

interface Outcome {
  status: number;
  body: unknown;
}
type TwelveCalls = (baseUrl: string, login: { username: string; password: string }) => Promise<Record<string, Outcome>>;

/** Loaded by a computed name: the repository's typecheck must not follow it to types generated here. */
async function loadCalls(): Promise<TwelveCalls> {
  const file = join(here, 'openapi-client', 'calls.mts');
  return ((await import(/* @vite-ignore */ file)) as { twelveCalls: TwelveCalls }).twelveCalls;
}

const require = createRequire(import.meta.url);
const here = dirname(fileURLToPath(import.meta.url));

let t: TestServer;
let me: TestUser;
let dir: string;

beforeAll(async () => {
  t = await startTestServer();
  me = await aUser(t.api);
  dir = mkdtempSync(join(tmpdir(), 'plaza-openapi-client-'));
});
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await t?.close();
});

function tsc(args: string[]): Promise<{ code: number; output: string }> {
  const bin = join(dirname(require.resolve('typescript/package.json')), 'bin', 'tsc');
  return new Promise((resolve) =>
    execFile(process.execPath, [bin, ...args], { timeout: 240_000, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) =>
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, output: `${stdout}${stderr}` }),
    ),
  );
}

describe('a client generated from openapi.json', () => {
  it('typechecks: the generated types and a program calling through openapi-fetch', async () => {
    const res = await fetch(`${t.url}/api/v1/openapi.json`);
    expect(res.status).toBe(200);
    const doc = (await res.json()) as { paths: Record<string, unknown> };
    expect(Object.keys(doc.paths).filter((key) => key.includes('?'))).toEqual([]);
    const types = astToString(await openapiTS(doc as never));
    writeFileSync(join(dir, 'plaza-api.d.ts'), types);
    copyFileSync(join(here, 'openapi-client', 'calls.mts'), join(dir, 'calls.mts'));
    // openapi-fetch from this repository's node_modules, wherever the temporary directory is.
    symlinkSync(dirname(dirname(require.resolve('openapi-fetch/package.json'))), join(dir, 'node_modules'));
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          strict: true,
          noEmit: true,
          skipLibCheck: false,
          types: [],
          lib: ['ES2022', 'DOM'],
        },
        files: ['calls.mts', 'plaza-api.d.ts'],
      }),
    );
    const checked = await tsc(['-p', join(dir, 'tsconfig.json')]);
    expect(checked.output).toBe('');
    expect(checked.code).toBe(0);

    // A wrong body is a compile error: the types do constrain the calls.
    writeFileSync(
      join(dir, 'wrong.mts'),
      [
        "import createClient from 'openapi-fetch';",
        "import type { paths } from './plaza-api.js';",
        'const client = createClient<paths>({ baseUrl: "http://x" });',
        "await client.POST('/pages.php/action/create_post', { body: { page: 1 } });",
        "await client.GET('/posts.php?id=1');",
      ].join('\n'),
    );
    writeFileSync(join(dir, 'tsconfig.wrong.json'), JSON.stringify({ extends: './tsconfig.json', files: ['wrong.mts', 'plaza-api.d.ts'] }));
    const wrong = await tsc(['-p', join(dir, 'tsconfig.wrong.json')]);
    expect(wrong.code).not.toBe(0);
    expect(wrong.output).toContain('wrong.mts(4,');
    expect(wrong.output).toContain('wrong.mts(5,');
  }, 300_000);

  it('calls twelve operations of six scripts on a running server', async () => {
    const out = await (await loadCalls())(`${t.url}/api/v1`, { username: me.username, password: me.password });
    const body = (name: string) => out[name]?.body as Record<string, any>;
    expect(Object.keys(out)).toEqual([
      'auth.postLogin',
      'users.get',
      'posts.post',
      'posts.getWithId',
      'posts.get',
      'comments.post',
      'comments.get',
      'groups.postCreate',
      'groups.getWithId',
      'pages.postCreate',
      'pages.postCreatePost',
      'pages.getByIdPosts',
    ]);
    // posts.php creates with 200 and groups.php with 201, as the app expects (both documented).
    for (const [name, o] of Object.entries(out)) expect(o.status, name).toBe(name === 'groups.postCreate' ? 201 : 200);
    for (const name of Object.keys(out)) expect(body(name).success, name).toBe(true);
    expect(body('auth.postLogin').user_id).toBe(me.id);
    expect(body('users.get').username).toBe(me.username);
    const postId = body('posts.post').post_id;
    expect(body('posts.getWithId').data.id).toBe(postId);
    expect(body('posts.get').posts.map((p: { id: number }) => p.id)).toContain(postId);
    expect(body('comments.get').comments.map((c: { content: string }) => c.content)).toContain('A comment through the client');
    expect(body('groups.getWithId').data.name).toBe('Generated client group');
    expect(body('pages.getByIdPosts').data.map((p: { content: string }) => p.content)).toContain('On the page');
  });
});

describe('selector paths (docs/decisions/0170)', () => {
  it('serve the same operation as the query form, under /api/v1/ and /v1/', async () => {
    const query = await t.api.get(`posts.php?id=1`, { token: me.token });
    for (const path of ['posts.php/id/1', '/v1/posts.php/id/1']) {
      const res = await t.api.get(path, { token: me.token });
      expect(res.status, path).toBe(query.status);
      expect(res.body, path).toEqual(query.body);
    }
    const group = await t.api.post('groups.php/action/create', { name: 'By path', privacy: 'public' }, { token: me.token });
    expect(group.status).toBe(201);
    const members = await t.api.get(`groups.php/id/${group.body.group_id}/members/1`, { token: me.token });
    expect(members.status).toBe(200);
    expect(members.body.data.map((m: { id: number }) => m.id)).toContain(me.id);
  });

  it('refuse a key given twice, and leave other paths to the 404', async () => {
    const twice = await t.api.get('posts.php/id/1?id=2', { token: me.token });
    expect(twice.status).toBe(400);
    expect(twice.body.details).toEqual([{ field: 'id', problem: 'given both in the path and in the query string' }]);
    for (const path of ['posts.php/id', 'posts.php/id/', 'nope.php/action/x', 'groups.php/path']) {
      const res = await t.api.get(path, { token: me.token });
      expect(res.status, path).toBe(404);
      expect(res.body.success, path).toBe(false);
    }
  });
});
