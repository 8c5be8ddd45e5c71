import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { createLogger } from '@plaza/adapters-http';
import { RATE_LIMIT_GROUPS } from '@plaza/domain';
import { RecordingMailer } from '@plaza/domain/accounts/testing';
import { RecordingPushSender } from '@plaza/domain/notifications/testing';
import { loadConfig, type RunningPlaza, startPlaza } from '@plaza/server';
import { Redis } from 'ioredis';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../support/client.js';
import { openTestDatabase, type TestDatabase } from '../support/database.js';
import { freePort } from '../support/free-port.js';
import { aFollow, aPost, aUser, type TestUser } from '../support/mothers.js';

/**
 * A Redis that goes away (issue 31, docs/decisions/0160), on a redis-server of this test's own (never the
 * shared 6379), killed and started again empty: requests that need only the database keep working and
 * the instance stays ready; the jobs wait, resume once Redis is back, and do each piece of work once;
 * each connection's failure is one log line, not one per retry.
 */
let port: number;
let redisServer: ChildProcess | null = null;
let database: TestDatabase;
let plaza: RunningPlaza;
let api: ApiClient;
const mailer = new RecordingMailer();
const dirs: string[] = [];
const lines: { msg: string; level: number; redis?: { connection: string } }[] = [];

async function startRedis(): Promise<void> {
  redisServer = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
    stdio: 'ignore',
  });
  const probe = new Redis(port, '127.0.0.1', { lazyConnect: true, retryStrategy: () => 50, maxRetriesPerRequest: 0 });
  probe.on('error', () => {});
  for (let i = 0; i < 100; i++) {
    try {
      if (probe.status !== 'ready') await probe.connect();
      if ((await probe.ping()) === 'PONG') break;
    } catch {
      await sleep(50);
    }
  }
  probe.disconnect();
}

async function killRedis(): Promise<void> {
  const child = redisServer;
  redisServer = null;
  if (!child || child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}

async function until(check: () => Promise<boolean> | boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await sleep(100);
  }
}

beforeAll(async () => {
  port = await freePort();
  await startRedis();
  database = await openTestDatabase();
  const [uploads, tmp] = [mkdtempSync('/tmp/plaza-test-uploads-'), mkdtempSync('/tmp/plaza-test-upload-tmp-')];
  dirs.push(uploads, tmp);
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    BCRYPT_COST: '4',
    API_DATA_DIR: '/tmp/plaza-test-data',
    API_PUBLIC_URL: 'http://plaza.test',
    API_RATE_LIMITS: RATE_LIMIT_GROUPS.map((g) => `${g}=100000`).join(','),
    API_LOGIN_ACCOUNT_LIMIT: '100000',
    API_UPLOADS_PATH: uploads,
    API_UPLOAD_TMP_DIR: tmp,
    REDIS_URL: `redis://127.0.0.1:${port}`,
    REDIS_PREFIX: `plaza_t_${randomBytes(4).toString('hex')}:`,
    JOB_BACKOFF_MS: '200',
    // One timeline beyond the author's is written in the request; the others only by the fan-out job.
    HOME_TIMELINE_FANOUT_IN_REQUEST: '1',
  });
  const logger = createLogger({ level: 'info', destination: { write: (line: string) => void lines.push(JSON.parse(line)) } });
  plaza = await startPlaza(config, { database, logger, jobs: true, mailer, push: new RecordingPushSender() });
  api = new ApiClient(plaza.url);
}, 180_000);

afterAll(async () => {
  await plaza?.close();
  await killRedis();
  await database?.drop();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const feedIds = async (u: TestUser) => ((await api.get('posts.php', { token: u.token })).body.posts as { id: number }[]).map((p) => p.id);

describe('a Redis that goes away', () => {
  it('leaves requests and readiness alone, holds the jobs back, and they resume and do each fan-out once', async () => {
    const [author, a, b] = [await aUser(api), await aUser(api), await aUser(api)];
    await aFollow(api, a, author);
    await aFollow(api, b, author);
    for (const u of [author, a, b]) await feedIds(u);
    const holding = async (postId: number) => (await Promise.all([author, a, b].map(feedIds))).filter((ids) => ids.includes(postId)).length;

    // With Redis up, the fan-out job (every 2 s, on BullMQ) writes the third timeline.
    const before = await aPost(api, author, { content: 'before the outage' });
    await until(async () => (await holding(before.id)) === 3, 15_000);

    await killRedis();
    await until(() => lines.some((l) => l.msg.startsWith('Redis unreachable')), 10_000);

    // Requests need only the database: rate limits count in the process meanwhile.
    const during: { id: number }[] = [];
    for (let i = 0; i < 3; i++) during.push(await aPost(api, author, { content: `during the outage ${i}` }));
    expect((await api.get('posts.php', { token: a.token })).status).toBe(200);
    const ready = await fetch(`${plaza.url}/health/ready`);
    expect(ready.status).toBe(200);
    // A mail committed meanwhile stays in mail_outbox: nothing can relay it to BullMQ (docs/decisions/0215).
    expect((await api.post('auth.php?action=forgot_password', { email: a.email })).status).toBe(200);

    // The jobs wait: the request wrote two timelines, nothing writes the third.
    await sleep(5_000);
    for (const post of during) expect(await holding(post.id)).toBe(2);
    expect(mailer.sent.filter((m) => m.to === a.email)).toHaveLength(0);

    // Redis comes back empty (no persistence): the schedules are declared again and the jobs resume.
    await startRedis();
    await until(async () => (await Promise.all(during.map((p) => holding(p.id)))).every((n) => n === 3), 30_000);
    expect(lines.some((l) => l.msg.startsWith('Redis reachable again'))).toBe(true);
    // The relay resumes: the mail goes out once, and its row says so.
    await until(() => mailer.sent.some((m) => m.to === a.email), 30_000);
    await sleep(1_500);
    expect(mailer.sent.filter((m) => m.to === a.email)).toHaveLength(1);
    const mail = await sql<{ status: string }>`select status from mail_outbox where recipient = ${a.email}`.execute(database.db);
    expect(mail.rows.map((r) => r.status)).toEqual(['sent']);

    // Each post is in each timeline once: no fan-out was lost or done twice.
    const ids = [before, ...during].map((p) => p.id);
    const rows = await sql<{ user_id: number; post_id: number; n: number }>`
      select user_id, post_id, count(*) as n from home_timeline
      where post_id in (${sql.join(ids)}) group by user_id, post_id`.execute(database.db);
    expect(rows.rows.length).toBe(ids.length * 3);
    expect(rows.rows.every((r) => Number(r.n) === 1)).toBe(true);

    // One line per connection that failed, not one per reconnection attempt.
    const down = lines.filter((l) => l.msg.startsWith('Redis unreachable'));
    expect(down.length).toBeGreaterThanOrEqual(1);
    expect(down.length).toBeLessThanOrEqual(3);
    expect(new Set(down.map((l) => l.redis?.connection)).size).toBe(down.length);
  }, 90_000);
});
