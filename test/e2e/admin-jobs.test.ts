import { BullJobRunner, RedisConnections } from '@plaza/adapters-integrations/redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FormClient, text } from '../support/form-client.js';
import { aUser, type TestUser } from '../support/mothers.js';
import { TEST_REDIS_URL, useTestRedis } from '../support/redis.js';
import { startTestServer, type TestServer } from '../support/server.js';

/**
 * The admin panel's Jobs page (docs/decisions/0160) over HTTP: with Redis, the runs BullMQ kept after
 * their last attempt (the dead letters), run again or discarded by an administrator; without, a page
 * that says the jobs run on timers and keep nothing.
 */
const redis = useTestRedis();

async function withRole(t: TestServer, role: 'admin' | 'moderator' | null): Promise<TestUser> {
  const u = await aUser(t.api);
  if (role)
    await t.database.db
      .updateTable('users')
      .set(role === 'admin' ? { is_admin: 1 } : { is_moderator: 1 })
      .where('id', '=', u.id)
      .execute();
  return u;
}

async function signedIn(t: TestServer, u: TestUser): Promise<FormClient> {
  const b = new FormClient(t.url);
  await b.signIn(u.username, u.password);
  return b;
}

describe('without Redis', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  }, 120_000);
  afterAll(() => t?.close());

  it('says the jobs run on timers, to moderators; others get 403', async () => {
    const page = await (await signedIn(t, await withRole(t, 'moderator'))).get('/admin/jobs.php');
    expect(page.status).toBe(200);
    expect(text(page.html)).toContain('run on timers in each instance');
    expect(page.html).toContain('id="no-failed-runs"');
    expect((await (await signedIn(t, await withRole(t, null))).get('/admin/jobs.php')).status).toBe(403);
  });
});

describe('with Redis', () => {
  let t: TestServer;
  let prefix: string;
  let connections: RedisConnections;
  beforeAll(async () => {
    prefix = redis.fresh();
    t = await startTestServer({ env: { REDIS_URL: TEST_REDIS_URL, REDIS_PREFIX: prefix } });
    connections = new RedisConnections(TEST_REDIS_URL, prefix, { down: () => {}, up: () => {} });
    // A fresh MariaDB database is migrated first: slower than the default hook timeout on a busy machine.
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await connections?.close();
  });

  it('lists a run failed on every attempt; an administrator runs it again or discards it, a moderator only reads', async () => {
    // Another instance's runner, whose job fails every attempt (the server under test runs no jobs).
    let calls = 0;
    const other = new BullJobRunner(
      connections,
      [
        {
          name: 'deliver-mail',
          everyMs: 60_000,
          run: async () => {
            calls++;
            throw new Error('SMTP answered 421 <try later>');
          },
        },
      ],
      { concurrency: 1, attempts: 2, backoffMs: 20 },
      { failed: () => {} },
    );
    await other.start();
    const deadline = Date.now() + 10_000;
    while ((await other.failed(0, 1)).total === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    await other.stop();
    expect(calls).toBe(2);
    const [run] = (await other.failed(0, 1)).items;

    const moderator = await signedIn(t, await withRole(t, 'moderator'));
    const seen = await moderator.get('/admin/jobs.php');
    expect(seen.status).toBe(200);
    expect(seen.html).toContain(`data-run="${run.id}"`);
    // BullMQ's counts of the queue (docs/decisions/0215): the one failed run, nothing waiting.
    expect(seen.html).toContain('<dd data-state="failed">1</dd>');
    expect(seen.html).toContain('<dd data-state="waiting">0</dd>');
    // Escaped, as every value the page shows.
    expect(seen.html).toContain('SMTP answered 421 &lt;try later&gt;');
    expect(seen.html).not.toContain('value="retry"');
    expect((await moderator.post('/admin/jobs.php', { action: 'retry', id: run.id })).status).toBe(403);

    const admin = await signedIn(t, await withRole(t, 'admin'));
    expect((await admin.get('/admin/jobs.php')).html).toContain('value="retry"');
    const retried = await admin.post('/admin/jobs.php', { action: 'retry', id: run.id });
    expect(retried.status).toBe(303);
    expect(retried.location).toBe(`/admin/jobs.php?done=retry&id=${encodeURIComponent(run.id)}`);
    expect((await other.failed(0, 10)).total).toBe(0);
    // Retried meanwhile (by someone else): a conflict, nothing done.
    const again = await admin.post('/admin/jobs.php', { action: 'discard', id: run.id });
    expect(again.status).toBe(409);
    expect(text(again.html)).toContain('no longer failed');
    expect((await admin.post('/admin/jobs.php', { action: 'explode', id: run.id })).status).toBe(400);
  });
});
