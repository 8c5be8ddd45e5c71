import { mysqlConfigFromUrl } from '@plaza/adapters-mysql';
import { afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { TEST_DIALECT } from '../support/database.js';
import { buildServer, ownDatabaseEnv, type ServerProcess, startServerProcess } from '../support/server-process.js';
import { freePort, TcpRelay } from '../support/tcp-relay.js';

/**
 * Start-up that waits for the database (docs/decisions/0101), on the built server in a process of its
 * own: it listens at once and answers the probes, retries MySQL with backoff and one JSON line per
 * attempt, and either serves once the database answers or exits non-zero naming the variables.
 */

type Line = Record<string, any>;
/** Every stdout line as JSON: a line that is not JSON fails the test. */
const json = (lines: string[]) => lines.map((l) => JSON.parse(l) as Line);
const withMsg = (lines: string[], msg: string) => json(lines).filter((l) => l.msg === msg);

let running: ServerProcess[] = [];
let drops: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const server of running) if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL');
  await Promise.all(running.map((s) => s.exited));
  for (const drop of drops) await drop();
  running = [];
  drops = [];
});

function start(env: Record<string, string>): ServerProcess {
  const server = startServerProcess({
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'info',
    BCRYPT_COST: '4',
    API_DATA_DIR: `/tmp/plaza-startup-${process.pid}`,
    ...env,
  });
  running.push(server);
  return server;
}

/** The port of the "listening, starting up" line, written before the database is tried. */
const boundPort = (server: ServerProcess) =>
  server.waitFor('the listening line', (lines) => withMsg(lines, 'Plaza listening, starting up')[0]?.port as number | undefined);

beforeAll(async () => {
  await buildServer();
}, 120_000);

describe('start-up against a database that does not answer', () => {
  it('listens meanwhile (live 200, ready 503 starting), logs each attempt with host and port, then exits 1 naming DB_HOST', async () => {
    const dbPort = await freePort();
    const server = start({ DB_HOST: '127.0.0.1', DB_PORT: String(dbPort), DB_CONNECT_TIMEOUT_S: '3' });
    const port = await boundPort(server);
    expect(withMsg(server.lines, 'Plaza listening, starting up')[0]).toMatchObject({ address: '127.0.0.1', port });

    const live = await fetch(`http://127.0.0.1:${port}/health/live`);
    expect(live.status).toBe(200);
    const ready = await fetch(`http://127.0.0.1:${port}/health/ready`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toMatchObject({ success: false, code: 'starting' });
    const legacy = await fetch(`http://127.0.0.1:${port}/health-public.php`);
    expect(legacy.status).toBe(503);
    expect(await legacy.json()).toMatchObject({ success: false, code: 'starting' });

    const { code } = await server.exited;
    expect(code).toBe(1);
    const attempts = withMsg(server.lines, 'database not reachable');
    // 250 ms, 500 ms, 1 s, 2 s… within 3 s: at least four attempts, each naming where it knocked.
    expect(attempts.length).toBeGreaterThanOrEqual(4);
    for (const [i, attempt] of attempts.entries()) {
      expect(attempt).toMatchObject({ level: 40, database: { host: '127.0.0.1', port: dbPort }, attempt: i + 1, error: 'ECONNREFUSED' });
    }
    const [fatal, ...more] = json(server.lines).filter((l) => l.level === 60);
    expect(more).toEqual([]);
    expect(fatal.msg).toMatch(
      /^Plaza failed to start: the database at 127\.0\.0\.1:\d+ did not answer within DB_CONNECT_TIMEOUT_S=3 s .*check DB_HOST and DB_PORT$/,
    );
    expect(json(server.lines).filter((l) => l.msg === 'Plaza ready')).toEqual([]);
  }, 30_000);

  it('names DB_SOCKET when a socket was configured', async () => {
    const server = start({ DB_SOCKET: '/nonexistent/plaza-test/mysqld.sock', DB_CONNECT_TIMEOUT_S: '1' });
    const { code } = await server.exited;
    expect(code).toBe(1);
    expect(withMsg(server.lines, 'database not reachable')[0]).toMatchObject({
      database: { socket: '/nonexistent/plaza-test/mysqld.sock' },
      error: 'ENOENT',
    });
    expect(json(server.lines).find((l) => l.level === 60)!.msg).toMatch(
      /the socket \/nonexistent\/plaza-test\/mysqld\.sock did not answer.*check DB_SOCKET$/,
    );
  }, 30_000);

  it('with API_WORKERS=2, the primary exits non-zero instead of replacing a worker that could not start', async () => {
    const server = start({ DB_HOST: '127.0.0.1', DB_PORT: String(await freePort()), DB_CONNECT_TIMEOUT_S: '1', API_WORKERS: '2' });
    const { code } = await server.exited;
    expect(code).toBe(1);
    expect(withMsg(server.lines, 'a worker failed to start; stopping the others')).toHaveLength(1);
    expect(withMsg(server.lines, 'worker exited; starting another')).toEqual([]);
  }, 30_000);
});

describe.skipIf(TEST_DIALECT !== 'mysql')('start-up against MySQL (MySQL runs only)', () => {
  it('serves once a database that was down comes up, then stops cleanly on SIGTERM', async () => {
    const base = mysqlConfigFromUrl(inject('mysqlUrl')!);
    const own = await ownDatabaseEnv();
    drops.push(own.drop);
    // A loopback port that refuses connections for 2 s, then forwards them to the real server.
    const dbPort = await freePort();
    const relay = new TcpRelay(base.host, base.port);
    drops.push(() => relay.cut());
    const server = start({ ...own.env, DB_HOST: '127.0.0.1', DB_PORT: String(dbPort), DB_CONNECT_TIMEOUT_S: '30' });
    const port = await boundPort(server);
    await new Promise((r) => setTimeout(r, 2000));
    expect(withMsg(server.lines, 'database not reachable').length).toBeGreaterThanOrEqual(2);
    await relay.start(dbPort);

    const ready = await server.waitFor('the ready line', (lines) => withMsg(lines, 'Plaza ready')[0], 30_000);
    expect(ready).toMatchObject({
      address: '127.0.0.1',
      port,
      url: `http://127.0.0.1:${port}`,
      database: { dialect: 'mysql', host: '127.0.0.1', port: dbPort, name: own.env.DB_NAME },
    });
    expect(JSON.stringify(ready)).not.toContain('password');
    expect(withMsg(server.lines, 'database reachable')[0]).toMatchObject({ database: { host: '127.0.0.1', port: dbPort } });
    expect((await fetch(`http://127.0.0.1:${port}/health/ready`)).status).toBe(200);

    const stopping = Date.now();
    server.child.kill('SIGTERM');
    expect(await server.exited).toEqual({ code: 0, signal: null });
    // Nothing was in flight: no wait for the 8 s grace period.
    expect(Date.now() - stopping).toBeLessThan(4000);
    expect(withMsg(server.lines, 'Plaza stopping: finishing requests in flight')[0]).toMatchObject({ signal: 'SIGTERM' });
    expect(withMsg(server.lines, 'Plaza stopped')).toHaveLength(1);
  }, 60_000);

  it('stops at once, naming DB_USER and DB_PASSWORD, when the server refuses the credentials', async () => {
    const base = mysqlConfigFromUrl(inject('mysqlUrl')!);
    const started = Date.now();
    const server = start({
      DB_HOST: base.host,
      DB_PORT: String(base.port),
      DB_USER: 'plaza_no_such_user',
      DB_PASSWORD: 'wrong',
      DB_CONNECT_TIMEOUT_S: '60',
    });
    const { code } = await server.exited;
    expect(code).toBe(1);
    expect(Date.now() - started).toBeLessThan(20_000);
    const fatal = json(server.lines).find((l) => l.level === 60)!;
    expect(fatal.msg).toMatch(/ER_ACCESS_DENIED_ERROR.*check DB_USER and DB_PASSWORD$/);
    expect(fatal.msg).not.toContain('wrong');
  }, 30_000);
});
