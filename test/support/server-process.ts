import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createConnection } from 'mysql2/promise';
import { mysqlConfigFromUrl } from '@plaza/adapters-mysql';
import { inject } from 'vitest';
import { TEST_DIALECT } from './database.js';

/**
 * Plaza as production runs it: `node apps/server/dist/main.js` in a process of its own, for what only
 * a real process shows (node:cluster workers, signals, exit codes). Tests otherwise run on the sources.
 */

const root = fileURLToPath(new URL('../..', import.meta.url));

/**
 * Brings apps/server/dist up to date with the sources: `tsc -b` rebuilds only what changed (CI has
 * built already with `npm run typecheck`, so there it checks and returns), and fails on a type error
 * rather than let the test run yesterday's build.
 */
export function buildServer(): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [join(root, 'node_modules/typescript/bin/tsc'), '-b', join(root, 'apps/server')],
      { cwd: root, timeout: 120_000 },
      (error, stdout, stderr) => (error ? reject(new Error(`tsc -b apps/server failed:\n${stdout}${stderr}`)) : resolve()),
    );
  });
}

/**
 * A data directory, and on MySQL a throw-away database named as test/support/database.ts names them
 * (`plaza_t_<seconds>_…`, which the leftover cleanup recognises), for a server that opens and
 * migrates its own database.
 */
export async function ownDatabaseEnv(): Promise<{ env: Record<string, string>; drop: () => Promise<void> }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'plaza-process-'));
  const removeDir = () => rmSync(dataDir, { recursive: true, force: true });
  if (TEST_DIALECT === 'sqlite') return { env: { API_DATA_DIR: dataDir }, drop: async () => removeDir() };
  const base = mysqlConfigFromUrl(inject('mysqlUrl')!);
  const name = `plaza_t_${Math.floor(Date.now() / 1000)}_${process.pid}_${randomBytes(3).toString('hex')}`;
  const admin = await createConnection({ host: base.host, port: base.port, user: base.user, password: base.password });
  await admin.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
  await admin.end();
  return {
    env: {
      API_DATA_DIR: dataDir,
      DB_HOST: base.host,
      DB_PORT: String(base.port),
      DB_USER: base.user,
      DB_PASSWORD: base.password,
      DB_NAME: name,
    },
    async drop() {
      const conn = await createConnection({ host: base.host, port: base.port, user: base.user, password: base.password });
      await conn.query(`DROP DATABASE IF EXISTS \`${name}\``);
      await conn.end();
      removeDir();
    },
  };
}

export interface ServerProcess {
  child: ChildProcess;
  /** Every line written to stdout so far, by the process and by the cluster workers that share its stdout. */
  lines: string[];
  /** Resolves once `predicate` holds of the lines so far; rejects after `timeoutMs`, or if the process exits first. */
  waitFor<T>(what: string, predicate: (lines: string[]) => T | undefined | false, timeoutMs?: number): Promise<T>;
  /** Resolves with how the process ended. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/**
 * Starts dist/main.js with `env` alone (plus PATH), so that nothing from the developer's shell
 * (DB_HOST, NODE_OPTIONS…) leaks in.
 */
export function startServerProcess(env: Record<string, string>): ServerProcess {
  const child = spawn(process.execPath, [join(root, 'apps/server/dist/main.js')], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  const errors: string[] = [];
  const waiters = new Set<() => void>();
  const collect = (into: string[]) => {
    let partial = '';
    return (chunk: Buffer) => {
      const parts = (partial + chunk.toString('utf8')).split('\n');
      partial = parts.pop()!;
      into.push(...parts.filter(Boolean));
      for (const check of waiters) check();
    };
  };
  child.stdout!.on('data', collect(lines));
  child.stderr!.on('data', collect(errors));
  let ended: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => {
      ended = { code, signal };
      for (const check of waiters) check();
      resolve(ended);
    }),
  );

  const waitFor = <T>(what: string, predicate: (lines: string[]) => T | undefined | false, timeoutMs = 15_000) =>
    new Promise<T>((resolve, reject) => {
      const finish = (error?: Error, value?: T) => {
        clearTimeout(timer);
        waiters.delete(check);
        if (error) reject(error);
        else resolve(value as T);
      };
      const fail = (why: string) =>
        finish(new Error(`${why} waiting for ${what}\nstdout:\n${lines.join('\n')}\nstderr:\n${errors.join('\n')}`));
      const check = () => {
        const value = predicate(lines);
        if (value !== undefined && value !== false) finish(undefined, value);
        else if (ended) fail(`process exited (${ended.signal ?? ended.code})`);
      };
      const timer = setTimeout(() => fail(`timed out after ${timeoutMs} ms`), timeoutMs);
      waiters.add(check);
      check();
    });

  return { child, lines, waitFor, exited };
}
