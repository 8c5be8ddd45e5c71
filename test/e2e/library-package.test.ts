import { execFile } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createConnection } from 'mysql2/promise';
import { mysqlConfigFromUrl } from '@plaza/adapters-mysql';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { TEST_DIALECT } from '../support/database.js';

/**
 * Issue 32 item 3: the packages install like any other. `npm pack` of @plaza/domain and of the
 * server's library entry (@plaza/server, with the adapters it depends on) from this tree, installed
 * into an empty project from the tarballs, whose script creates a user and a post through
 * `createPlaza()` on SQLite (on MariaDB too when the suite runs on it) and type-checks against the
 * published declarations. Third-party dependencies come from npm's cache (`--offline`); the network is
 * asked only when the cache lacks one (a cold machine).
 */
const root = join(import.meta.dirname, '..', '..');
const run = promisify(execFile);
const PACKAGES = [
  '@plaza/domain',
  '@plaza/adapters-mysql',
  '@plaza/adapters-integrations',
  '@plaza/adapters-activitypub',
  '@plaza/adapters-http',
  '@plaza/server',
];
const npmFound = await run('npm', ['--version']).then(
  () => true,
  () => false,
);

/** The consumer: plain JavaScript against the installed packages, as a project of someone else's would write it. */
const SCRIPT = `
import { createPlaza, Groups, Content } from '@plaza/server';
import { actorOf } from '@plaza/domain/accounts';
import { Invalid } from '@plaza/domain';

const plaza = await createPlaza({ env: process.env });
try {
  const user = await plaza.accounts.auth.register({ username: 'packaged', email: 'packaged@example.test', password: 'a long password' });
  const created = await plaza.content.posts.create(actorOf(user), { content: 'Hello from an installed Plaza', media: [], media_type: null, tags: [] });
  const refused = await plaza.content.posts.create(actorOf(user), { content: 42 }).catch((e) => e);
  console.log(JSON.stringify({
    user,
    post: created.post,
    refused: refused instanceof Invalid ? refused.code : String(refused),
    groupsToken: typeof Groups.GroupService,
    sameService: plaza.get(Content.PostService) !== undefined,
    contexts: Object.keys(plaza).sort(),
  }));
} finally {
  await plaza.close();
}
`;

/** The same calls in TypeScript: the declarations must carry the library's types through `exports`. */
const TYPED = `
import { createPlaza, Groups, type Plaza } from '@plaza/server';
import { actorOf, type UserRecord } from '@plaza/domain/accounts';

export async function hello(plaza: Plaza): Promise<number> {
  const user: UserRecord = await plaza.accounts.auth.register({ username: 'typed', email: 'typed@example.test', password: 'a long password' });
  const { post } = await plaza.content.posts.create(actorOf(user), { content: 'typed', media: [], media_type: null, tags: [] });
  const found = await plaza.discovery.search.search(actorOf(user), { q: 'typed', type: 'posts', page: { page: 1, perPage: 20 } });
  // @ts-expect-error a post's content is a string
  await plaza.content.posts.create(actorOf(user), { content: 42, media: [], media_type: null, tags: [] });
  const token: symbol = Groups.GroupService;
  return post.id + found.posts.length + token.toString().length;
}
export const open: typeof createPlaza = createPlaza;
`;

let work: string | undefined;
// The installed project holds a few hundred packages: removing them takes a while on a busy machine.
afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
}, 300_000);

describe('the library as installable packages', () => {
  it.skipIf(!npmFound)(
    'packs @plaza/domain and @plaza/server, installs the tarballs into an empty project, and its script creates a user and a post',
    async () => {
      const times: Record<string, number> = {};
      const timed = async <T>(name: string, step: () => Promise<T>): Promise<T> => {
        const start = performance.now();
        try {
          return await step();
        } finally {
          times[name] = Math.round(performance.now() - start);
        }
      };
      work = mkdtempSync(join(tmpdir(), 'plaza-package-'));
      const packs = join(work, 'packs');
      const project = join(work, 'project');
      mkdirSync(packs);
      mkdirSync(project);

      // The packages are built code: the same step as npm start (compiles only what changed).
      await timed('build', () => run('node', ['scripts/build-if-stale.mjs'], { cwd: root, maxBuffer: 1 << 26 }));
      const packed = await timed('pack', () =>
        run('npm', ['pack', ...PACKAGES.flatMap((p) => ['-w', p]), '--pack-destination', packs, '--ignore-scripts', '--json'], {
          cwd: root,
          maxBuffer: 1 << 26,
        }),
      );
      const tarballs = JSON.parse(packed.stdout) as { name: string; filename: string; files: { path: string }[] }[];
      expect(tarballs.map((t) => t.name).sort()).toEqual([...PACKAGES].sort());
      for (const t of tarballs) {
        const paths = t.files.map((f) => f.path);
        expect(paths, t.name).toContain('dist/index.js');
        expect(paths, t.name).toContain('dist/index.d.ts');
        // Built code only: no TypeScript sources (the admin panel's templates and the OpenAPI document's recorded
        // examples are data), no tests, no build state.
        if (t.name === '@plaza/adapters-http') expect(paths).toContain('src/http/openapi-examples.json');
        expect(
          paths.filter(
            (p) =>
              /\.test\.|tsbuildinfo/.test(p) ||
              (p.startsWith('src/') && !p.startsWith('src/admin/templates/') && p !== 'src/http/openapi-examples.json'),
          ),
          t.name,
        ).toEqual([]);
        const manifest = JSON.parse(readFileSync(join(root, 'node_modules', t.name, 'package.json'), 'utf8'));
        expect(manifest.private, `${t.name} is installable`).toBeUndefined();
        expect(Object.values(manifest.dependencies ?? {}), `${t.name}'s dependency ranges`).not.toContain('*');
      }

      writeFileSync(
        join(project, 'package.json'),
        JSON.stringify({
          name: 'embeds-plaza',
          private: true,
          type: 'module',
          dependencies: Object.fromEntries(tarballs.map((t) => [t.name, `file:${join(packs, t.filename)}`])),
        }),
      );
      // Install scripts stay off (the cache has what they would download, or nothing); SQLite's binding
      // is the one this tree built for the same version, else rebuilt.
      const install = (mode: string) =>
        run('npm', ['install', mode, '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], {
          cwd: project,
          maxBuffer: 1 << 26,
        });
      await timed('install', () =>
        install('--offline').catch((error: { stderr?: string }) => {
          if (!String(error.stderr).includes('ENOTCACHED')) throw error;
          return install('--prefer-offline');
        }),
      );
      const binding = 'node_modules/better-sqlite3/build/Release/better_sqlite3.node';
      const version = (dir: string) => JSON.parse(readFileSync(join(dir, 'node_modules/better-sqlite3/package.json'), 'utf8')).version;
      if (existsSync(join(root, binding)) && version(root) === version(project)) {
        mkdirSync(join(project, 'node_modules/better-sqlite3/build/Release'), { recursive: true });
        copyFileSync(join(root, binding), join(project, binding));
      } else {
        await timed('rebuild', () => run('npm', ['rebuild', 'better-sqlite3'], { cwd: project, maxBuffer: 1 << 26 }));
      }

      const env: Record<string, string> = { PATH: process.env.PATH ?? '', API_DATA_DIR: join(work, 'data'), BCRYPT_COST: '4' };
      let dropDatabase = async () => {};
      if (TEST_DIALECT === 'mysql') {
        const base = mysqlConfigFromUrl(inject('mysqlUrl')!);
        const name = `plaza_t_${Math.floor(Date.now() / 1000)}_${process.pid}_pkg`;
        const admin = await createConnection({ host: base.host, port: base.port, user: base.user, password: base.password });
        await admin.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
        Object.assign(env, {
          DB_HOST: base.host,
          DB_PORT: String(base.port),
          DB_USER: base.user,
          DB_PASSWORD: base.password ?? '',
          DB_NAME: name,
        });
        dropDatabase = async () => {
          await admin.query(`DROP DATABASE \`${name}\``);
          await admin.end();
        };
      }
      writeFileSync(join(project, 'main.mjs'), SCRIPT);
      try {
        const { stdout } = await timed('script', () => run('node', ['main.mjs'], { cwd: project, env }));
        const out = JSON.parse(stdout.trim().split('\n').at(-1)!);
        expect(out.user).toMatchObject({ id: expect.any(Number), username: 'packaged' });
        expect(Object.keys(out.user).filter((k) => /password|totp_secret|hash/.test(k))).toEqual([]);
        expect(out.post).toMatchObject({ id: expect.any(Number), user_id: out.user.id, content: 'Hello from an installed Plaza' });
        expect(out.refused).toBe('invalid_input');
        expect(out.groupsToken).toBe('symbol');
        expect(out.sameService).toBe(true);
        expect(out.contexts).toEqual(expect.arrayContaining(['accounts', 'content', 'discovery', 'events', 'albums', 'social']));
      } finally {
        await dropDatabase();
      }

      // The declarations: a TypeScript consumer compiles against the tarballs' types, with NodeNext resolution.
      writeFileSync(join(project, 'typed.ts'), TYPED);
      writeFileSync(
        join(project, 'tsconfig.json'),
        JSON.stringify({
          compilerOptions: {
            module: 'nodenext',
            moduleResolution: 'nodenext',
            target: 'es2022',
            strict: true,
            noEmit: true,
            skipLibCheck: true,
          },
          files: ['typed.ts'],
        }),
      );
      await timed('typecheck', () =>
        run('node', [join(root, 'node_modules/typescript/bin/tsc'), '-p', project], { cwd: project, maxBuffer: 1 << 26 }).catch(
          (error: { stdout?: string }) => {
            throw new Error(`the consumer does not type-check:\n${error.stdout}`);
          },
        ),
      );
      console.log(`library package: ${JSON.stringify(times)} ms`);
    },
    900_000,
  );
});
