import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { createLogger } from '@plaza/adapters-http';
import { RATE_LIMIT_GROUPS } from '@plaza/domain';
import type { Mailer, MailMessage } from '@plaza/domain/accounts';
import { loadConfig, Platform, resolve, type RunningPlaza, startPlaza, Timeline } from '@plaza/server';
import { Redis } from 'ioredis';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../support/client.js';
import { openTestDatabase, type TestDatabase } from '../support/database.js';
import { freePort } from '../support/free-port.js';
import { aFollow, aPost, aUser, type TestUser } from '../support/mothers.js';
import { TEST_REDIS_URL } from '../support/redis.js';
import { newActivityId, startStrictServer, type StrictServer } from '../support/strict-verifier.js';

/**
 * The outboxes on BullMQ (issue 31, docs/decisions/0215): two instances on one database and one
 * Redis (the shared one, under a key prefix of this file's own), behind one public URL (the first's).
 * A committed mail is relayed from `mail_outbox` to BullMQ and sent once by one of the two worker
 * pools; a refused one is retried with growing pauses, then kept failed in BullMQ and in the table; a
 * post's federation delivery reaches the remote inbox once, and its home-timeline fan-out a follower's
 * stored timeline once; closing an instance (SIGTERM's path)
 * waits for the mail its worker is sending.
 */
class ScriptedMailer implements Mailer {
  readonly sent: MailMessage[] = [];
  readonly attempts: { to: string; at: number }[] = [];
  readonly refuse = new Set<string>();
  readonly slow = new Set<string>();
  async send(message: MailMessage): Promise<void> {
    this.attempts.push({ to: message.to, at: Date.now() });
    if (this.slow.has(message.to)) await sleep(1_000);
    if (this.refuse.has(message.to)) throw new Error(`550 mailbox ${message.to} unavailable`);
    this.sent.push(message);
  }
}

let database: TestDatabase;
let strict: StrictServer;
let origin: string;
const instances: { plaza: RunningPlaza; mailer: ScriptedMailer; api: ApiClient; closed: boolean }[] = [];
const dirs: string[] = [];
const prefix = `plaza_t_outbox_${randomBytes(4).toString('hex')}:`;

beforeAll(async () => {
  database = await openTestDatabase();
  strict = await startStrictServer();
  const port = await freePort();
  origin = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 2; i++) {
    const [uploads, tmp] = [mkdtempSync('/tmp/plaza-test-uploads-'), mkdtempSync('/tmp/plaza-test-upload-tmp-')];
    dirs.push(uploads, tmp);
    const config = loadConfig({
      PORT: i === 0 ? String(port) : '0',
      HOST: '127.0.0.1',
      API_FEDERATION_ALLOW_PRIVATE: 'true',
      BCRYPT_COST: '4',
      API_DATA_DIR: '/tmp/plaza-test-data',
      API_PUBLIC_URL: origin,
      API_RATE_LIMITS: RATE_LIMIT_GROUPS.map((g) => `${g}=100000`).join(','),
      API_LOGIN_ACCOUNT_LIMIT: '100000',
      API_UPLOADS_PATH: uploads,
      API_UPLOAD_TMP_DIR: tmp,
      REDIS_URL: TEST_REDIS_URL,
      REDIS_PREFIX: prefix,
      JOB_ATTEMPTS: '3',
      JOB_BACKOFF_MS: '300',
      // Every fan-out beyond one timeline is queued for the job: the queue's lane is then exercised.
      HOME_TIMELINE_FANOUT_IN_REQUEST: '0',
    });
    const mailer = new ScriptedMailer();
    const logger = createLogger({ level: 'silent' });
    const plaza = await startPlaza(config, { database, logger, jobs: true, mailer });
    instances.push({ plaza, mailer, api: new ApiClient(plaza.url), closed: false });
  }
}, 180_000);

afterAll(async () => {
  await strict?.close();
  for (const i of instances) if (!i.closed) await i.plaza.close();
  // The file's keys, under its own prefix.
  const redis = new Redis(TEST_REDIS_URL);
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
    cursor = next;
    if (keys.length) await redis.unlink(...keys);
  } while (cursor !== '0');
  redis.disconnect();
  await database?.drop();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

async function until(check: () => Promise<boolean> | boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await sleep(50);
  }
}

const allSent = () => instances.flatMap((i) => i.mailer.sent);
const forgot = async (via: ApiClient, u: TestUser) => {
  const res = await via.post('auth.php?action=forgot_password', { email: u.email });
  expect(res.status).toBe(200);
};
const rowsTo = async (email: string) =>
  (
    await sql<{
      id: number;
      status: string;
      attempts: number;
    }>`select id, status, attempts from mail_outbox where recipient = ${email}`.execute(database.db)
  ).rows.map((r) => ({ id: Number(r.id), status: r.status, attempts: Number(r.attempts) }));

describe('the mail outbox on BullMQ, two instances', () => {
  it('runs on BullMQ and relays: the requests hand their mail over instead of sending it', () => {
    for (const { plaza } of instances) {
      expect(resolve(plaza.container, Platform.JobRunner).engine).toBe('bullmq');
      expect(resolve(plaza.container, Platform.OutboxSignal).relaying).toBe(true);
    }
  });

  it('sends each committed mail exactly once', async () => {
    const users: TestUser[] = [];
    for (let i = 0; i < 8; i++) users.push(await aUser(instances[i % 2].api));
    await Promise.all(users.map((u, i) => forgot(instances[i % 2].api, u)));
    const emails = users.map((u) => u.email);
    await until(() => allSent().filter((m) => emails.includes(m.to)).length >= 8, 20_000);
    // Long enough for a second relay pass, a lease or a retry to send one again, were it possible.
    await sleep(1_500);
    const sent = allSent().filter((m) => emails.includes(m.to));
    expect(sent.map((m) => m.to).sort()).toEqual([...emails].sort());
    for (const email of emails) expect(await rowsTo(email)).toEqual([expect.objectContaining({ status: 'sent', attempts: 0 })]);
  }, 60_000);

  it('retries a refused mail with growing pauses, then keeps it failed in BullMQ and in the table; run again, it is sent', async () => {
    const u = await aUser(instances[0].api);
    for (const i of instances) i.mailer.refuse.add(u.email);
    await forgot(instances[0].api, u);
    const runner = resolve(instances[0].plaza.container, Platform.JobRunner);
    const [row] = await rowsTo(u.email);
    const jobId = `deliver-mail-${row.id}`;
    await until(async () => (await runner.failed(0, 50)).items.some((r) => r.id === jobId), 20_000);
    const run = (await runner.failed(0, 50)).items.find((r) => r.id === jobId)!;
    expect(run).toMatchObject({ name: 'deliver-mail', attempts: 3, error: `550 mailbox ${u.email} unavailable` });
    expect(await rowsTo(u.email)).toEqual([expect.objectContaining({ status: 'failed', attempts: 3 })]);
    // Three attempts in all, across both instances, 300 then 600 ms apart (BullMQ's exponential backoff).
    const tries = instances
      .flatMap((i) => i.mailer.attempts)
      .filter((a) => a.to === u.email)
      .map((a) => a.at)
      .sort((a, b) => a - b);
    expect(tries).toHaveLength(3);
    expect(tries[1] - tries[0]).toBeGreaterThanOrEqual(250);
    expect(tries[2] - tries[1]).toBeGreaterThanOrEqual(550);
    expect((await runner.counts())?.failed).toBeGreaterThanOrEqual(1);
    // Nothing relays a given-up mail again.
    await sleep(1_500);
    expect(instances.flatMap((i) => i.mailer.attempts).filter((a) => a.to === u.email)).toHaveLength(3);

    for (const i of instances) i.mailer.refuse.delete(u.email);
    expect(await runner.retry(jobId)).toBe(true);
    await until(() => allSent().some((m) => m.to === u.email), 10_000);
    await until(async () => (await rowsTo(u.email))[0].status === 'sent', 5_000);
    expect(allSent().filter((m) => m.to === u.email)).toHaveLength(1);
    expect((await runner.failed(0, 50)).items.some((r) => r.id === jobId)).toBe(false);
  }, 60_000);

  it("delivers a follow and a post's Create to the remote inbox exactly once, through BullMQ", async () => {
    const u = await aUser(instances[0].api);
    const actor = `${origin}/fediverse/actor.php?username=${u.username}`;
    const sent = (type: string) => strict.deliveries.filter((d) => d.activity?.type === type && d.activity.actor === actor);
    const follow = await instances[1].api.post('fediverse.php?action=follow_remote', { actor_url: strict.actorUrl }, { token: u.token });
    expect(follow.status).toBe(200);
    await until(() => sent('Follow').length >= 1, 20_000);
    // The remote server follows back: the post then goes to its inbox.
    const back = await strict.signedPost(`${origin}/fediverse/inbox/${u.username}`, {
      '@context': 'https://www.w3.org/ns/activitystreams',
      id: newActivityId(strict.origin),
      type: 'Follow',
      actor: strict.actorUrl,
      object: actor,
    });
    expect(back.status).toBe(202);
    await until(
      async () => (await database.db.selectFrom('remote_followers').select('actor_url').where('user_id', '=', u.id).execute()).length === 1,
      20_000,
    );
    await aPost(instances[0].api, u, { content: 'through BullMQ' });
    await until(() => sent('Create').length >= 1, 20_000);
    await sleep(2_500);
    expect(sent('Follow')).toHaveLength(1);
    expect(sent('Create')).toHaveLength(1);
    expect(sent('Create')[0].verdict).toMatchObject({ ok: true });
    // Nothing left in the table: every message was worked once and completed.
    await until(
      async () => Number((await sql<{ n: number }>`select count(*) as n from federation_queue`.execute(database.db)).rows[0].n) === 0,
      10_000,
    );
  }, 90_000);

  it("fans a post out to a follower's stored timeline exactly once, through BullMQ", async () => {
    // Every delivery of the fan-out lane, on both instances (the runner calls the lane's deliver).
    const delivered: string[] = [];
    for (const { plaza } of instances) {
      const lane = resolve(plaza.container, Timeline.HomeTimeline).lane;
      const deliver = lane.deliver.bind(lane);
      lane.deliver = (id, last) => {
        delivered.push(id);
        return deliver(id, last);
      };
    }
    const [author, follower] = [await aUser(instances[0].api), await aUser(instances[1].api)];
    await aFollow(instances[1].api, follower, author);
    // Both timelines built (first feed read): the request writes the author's, the queue the follower's.
    for (const u of [author, follower]) expect((await instances[0].api.get('posts.php', { token: u.token })).status).toBe(200);
    const post = await aPost(instances[0].api, author, { content: 'fanned out through BullMQ' });
    const entry = await database.db
      .selectFrom('wall_entries')
      .select('id')
      .where('post_id', '=', post.id)
      .where('is_share', '=', 0)
      .executeTakeFirstOrThrow();
    const stored = async () =>
      (await database.db.selectFrom('home_timeline').select('entry_id').where('user_id', '=', follower.id).execute()).map(
        (r) => r.entry_id,
      );
    await until(async () => (await stored()).includes(entry.id), 20_000);
    // Long enough for a second relay pass to deliver it again, were it possible.
    await sleep(2_500);
    expect(delivered.filter((id) => id === String(entry.id))).toEqual([String(entry.id)]);
    expect((await stored()).filter((id) => id === entry.id)).toHaveLength(1);
    expect(await database.db.selectFrom('home_timeline_fanout').select('entry_id').where('entry_id', '=', entry.id).execute()).toEqual([]);
    for (const { api } of instances) {
      const res = await api.get('posts.php', { token: follower.token });
      expect(res.status).toBe(200);
      expect((res.body.posts as { id: number }[]).filter((p) => p.id === post.id)).toHaveLength(1);
    }
  }, 60_000);

  it('closing an instance (SIGTERM) waits for the mail its worker is sending', async () => {
    const u = await aUser(instances[0].api);
    for (const i of instances) i.mailer.slow.add(u.email);
    await forgot(instances[1].api, u);
    await until(() => instances.some((i) => i.mailer.attempts.some((a) => a.to === u.email)), 10_000);
    const sending = instances.find((i) => i.mailer.attempts.some((a) => a.to === u.email))!;
    expect(sending.mailer.sent.some((m) => m.to === u.email)).toBe(false);
    await sending.plaza.close();
    sending.closed = true;
    // Closed only once the mail went out and its row says so: nothing for another instance to send again.
    expect(sending.mailer.sent.filter((m) => m.to === u.email)).toHaveLength(1);
    expect(await rowsTo(u.email)).toEqual([expect.objectContaining({ status: 'sent' })]);
    await sleep(1_500);
    expect(allSent().filter((m) => m.to === u.email)).toHaveLength(1);
  }, 60_000);
});
