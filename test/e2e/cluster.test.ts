import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { RATE_LIMIT_GROUPS } from '@plaza/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../support/client.js';
import { aUser, type TestUser } from '../support/mothers.js';
import { buildServer, ownDatabaseEnv, type ServerProcess, startServerProcess } from '../support/server-process.js';

/**
 * API_WORKERS=2 (docs/decisions/0073) on the built server, over its own database (SQLite file or
 * MySQL): a primary that serves nothing and two workers on one port. Which process answered a request
 * is read from the access log, which every worker writes to the stdout they share with the primary:
 * pino puts the process id in each line, and the request id we send comes back in it.
 * The steps share one cluster and run in order: kill a worker, then stop them all.
 */

let server: ServerProcess;
let drop: () => Promise<void> = async () => {};
let url: string;
let user: TestUser;

const json = (lines: string[]) => lines.filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as Record<string, unknown>);
/** The "Plaza ready" lines of the workers; the first is that of the worker the primary started alone. */
const listening = (lines: string[]) => json(lines).filter((l) => l.msg === 'Plaza ready');
/** The pid that logged the request sent with `X-Request-Id: id`. */
const pidOf = (lines: string[], id: string) => json(lines).find((l) => l.msg === 'request' && l.req_id === id)?.pid as number | undefined;
/** PLAZA_JOBS as the primary set it in a worker's environment: '1' for the one that migrates and runs the periodic jobs. */
const jobsOf = (pid: number) =>
  readFileSync(`/proc/${pid}/environ`, 'utf8')
    .split('\0')
    .find((v) => v.startsWith('PLAZA_JOBS='))
    ?.slice('PLAZA_JOBS='.length);
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/**
 * GET users.php (the caller's own profile, read through a token some worker stored) on a connection
 * of its own: the primary deals connections to workers in turn, so a kept-alive one would stay with one.
 */
function getProfile(id: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${url}/api/v1/users.php`,
      { agent: false, headers: { authorization: `Bearer ${user.token}`, 'x-request-id': id } },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode!));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/** Sends `count` requests one after another; returns the pid that answered each (all must be 200). */
async function answeringPids(prefix: string, count: number): Promise<number[]> {
  const ids = Array.from({ length: count }, (_, i) => `${prefix}-${i}`);
  for (const id of ids) expect(await getProfile(id), id).toBe(200);
  // The access log is written asynchronously: wait until every request's line has arrived.
  return server.waitFor(`the access log of ${prefix}-*`, (lines) => {
    const pids = ids.map((id) => pidOf(lines, id));
    return pids.every((p) => p !== undefined) && (pids as number[]);
  });
}

beforeAll(async () => {
  await buildServer();
  const own = await ownDatabaseEnv();
  drop = own.drop;
  server = startServerProcess({
    ...own.env,
    API_WORKERS: '2',
    // Every worker listens on port 0: node:cluster gives them the one port the primary opened.
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'info',
    BCRYPT_COST: '4',
    API_UPLOAD_TMP_DIR: `${own.env.API_DATA_DIR}/upload-tmp`,
    API_RATE_LIMITS: RATE_LIMIT_GROUPS.map((g) => `${g}=100000`).join(','),
  });
  // Each worker loads every module before it listens: seconds apiece on a busy machine.
  const lines = await server.waitFor('two workers listening', (l) => listening(l).length >= 2 && listening(l), 60_000);
  url = lines[0].url as string;
  expect(lines[1].url).toBe(url);
  // Every line the primary and the workers wrote is JSON.
  expect(server.lines.filter((l) => !l.startsWith('{'))).toEqual([]);
  user = await aUser(new ApiClient(url));
  // Without a prior `npm run build`, building dist from scratch takes half a minute on its own.
}, 120_000);

afterAll(async () => {
  // Whatever a failed step left running: the primary, then any worker the log named.
  if (server && server.child.exitCode === null && server.child.signalCode === null) {
    server.child.kill('SIGKILL');
    await server.exited;
  }
  for (const pid of new Set(json(server?.lines ?? []).map((l) => l.pid as number))) if (alive(pid)) process.kill(pid, 'SIGKILL');
  await drop();
});

describe('API_WORKERS=2', () => {
  let jobsWorker: number;
  let otherWorker: number;

  it('serves the one port from two worker processes, neither of them the primary', async () => {
    const pids = await answeringPids('spread', 8);
    const distinct = [...new Set(pids)];
    expect(distinct).toHaveLength(2);
    expect(distinct).not.toContain(server.child.pid);
    [jobsWorker, otherWorker] = jobsOf(distinct[0]) === '1' ? distinct : [distinct[1], distinct[0]];
  });

  it('migrates and runs the periodic jobs in one worker only', () => {
    expect([jobsOf(jobsWorker), jobsOf(otherWorker)]).toEqual(['1', '0']);
    // The database was empty: the worker with the jobs migrated it; the other, started only once that
    // one was ready, found nothing left to apply (two started together would both have migrated).
    const migrated = json(server.lines).filter((l) => l.msg === 'database migrated');
    expect(migrated.map((l) => l.pid)).toEqual([jobsWorker]);
  });

  it('replaces a worker killed with SIGKILL, and keeps answering meanwhile', async () => {
    process.kill(jobsWorker, 'SIGKILL');
    await server.waitFor('the primary to notice', (l) =>
      json(l).some((line) => line.msg === 'worker exited; starting another' && line.worker === jobsWorker && line.exit === 'SIGKILL'),
    );
    // The survivor answers alone until the replacement listens.
    expect(await getProfile('survivor')).toBe(200);
    await server.waitFor('the replacement listening', (l) => listening(l).length >= 3, 60_000);
    const distinct = [...new Set(await answeringPids('replaced', 8))];
    expect(distinct).toHaveLength(2);
    expect(distinct).toContain(otherWorker);
    expect(distinct).not.toContain(jobsWorker);
    // The replacement of the worker with the jobs takes them over.
    const replacement = distinct.find((p) => p !== otherWorker)!;
    expect(jobsOf(replacement)).toBe('1');
    jobsWorker = replacement;
  });

  it('stops every worker on SIGTERM to the primary, which exits 0 within the grace period', async () => {
    const workers = [jobsWorker, otherWorker];
    const started = Date.now();
    server.child.kill('SIGTERM');
    const { code, signal } = await server.exited;
    expect({ code, signal }).toEqual({ code: 0, signal: null });
    // A worker forces its exit after 10 s and the primary then still exits 0: a clean stop is quicker.
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(workers.filter(alive)).toEqual([]);
    await expect(getProfile('after-stop')).rejects.toThrow();
  });
});
