import { OutboxSignal, type RunnableJob, TimerJobRunner } from '@plaza/domain';
import { InMemoryOutbox, jobRunnerContract } from '@plaza/domain/shared/testing';
import { BullJobRunner, RedisConnections } from '@plaza/adapters-integrations/redis';
import { afterAll, describe, expect, it } from 'vitest';
import { TEST_REDIS_URL, useTestRedis } from '../support/redis.js';

// The two runners of the periodic jobs (docs/decisions/0160): timers in the process, BullMQ on Redis.
const redis = useTestRedis();
const opened: RedisConnections[] = [];
afterAll(async () => {
  await Promise.all(opened.map((c) => c.close()));
});

jobRunnerContract('timers', async (jobs) => new TimerJobRunner(jobs, () => {}));
const stores = new Map<string, string>();
jobRunnerContract('bullmq', async (jobs, shared) => {
  // Each runner on keys of its own (or of its `shared` store), under the file's prefix that useTestRedis deletes afterwards.
  let prefix = shared ? stores.get(shared) : undefined;
  if (!prefix) prefix = redis.fresh();
  if (shared) stores.set(shared, prefix);
  const connections = new RedisConnections(TEST_REDIS_URL, prefix, { down: () => {}, up: () => {} });
  opened.push(connections);
  return new BullJobRunner(connections, jobs, { concurrency: 2, attempts: 3, backoffMs: 20, relayEveryMs: 50 }, { failed: () => {} });
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('bullmq: what only the Redis runner does', () => {
  const runner = (prefix: string, jobs: RunnableJob[], attempts = 3) => {
    const connections = new RedisConnections(TEST_REDIS_URL, prefix, { down: () => {}, up: () => {} });
    opened.push(connections);
    return new BullJobRunner(connections, jobs, { concurrency: 2, attempts, backoffMs: 20 }, { failed: () => {} });
  };

  it('runs each period once however many instances run the jobs', async () => {
    const prefix = redis.fresh();
    let runs = 0;
    const job = (): RunnableJob => ({ name: 'tick', everyMs: 200, run: async () => void runs++ });
    const alone = runner(redis.fresh(), [job()]);
    await alone.start();
    await sleep(2_100);
    await alone.stop();
    const single = runs;
    runs = 0;
    const instances = [runner(prefix, [job()]), runner(prefix, [job()]), runner(prefix, [job()])];
    await Promise.all(instances.map((r) => r.start()));
    await sleep(2_100);
    await Promise.all(instances.map((r) => r.stop()));
    // Timers in three instances would have run it three times as often.
    expect(single).toBeGreaterThanOrEqual(7);
    expect(runs).toBeLessThanOrEqual(single + 2);
    expect(runs).toBeGreaterThanOrEqual(single - 2);
  });

  it('keeps a run that failed every attempt as failed, to retry or discard', async () => {
    let failing = true;
    let calls = 0;
    const r = runner(redis.fresh(), [
      {
        name: 'broken',
        everyMs: 60_000,
        run: async () => {
          calls++;
          if (failing) throw new Error('SMTP refused');
        },
      },
    ]);
    await r.start();
    // The first run comes at once; its three attempts are 20 then 40 ms apart.
    const deadline = Date.now() + 10_000;
    while ((await r.failed(0, 10)).total === 0 && Date.now() < deadline) await sleep(50);
    const failed = await r.failed(0, 10);
    expect(failed.total).toBe(1);
    expect(failed.items[0]).toMatchObject({ name: 'broken', attempts: 3, error: 'SMTP refused' });
    expect(calls).toBe(3);
    failing = false;
    expect(await r.retry(failed.items[0].id)).toBe(true);
    while (calls < 4 && Date.now() < deadline) await sleep(50);
    expect(calls).toBe(4);
    await sleep(100);
    expect((await r.failed(0, 10)).total).toBe(0);
    expect(await r.retry(failed.items[0].id)).toBe(false);
    expect(await r.discard(failed.items[0].id)).toBe(false);
    await r.stop();
  });

  it('keeps an outbox row given up as a failed job, counts it, and delivers it when an administrator retries it', async () => {
    const outbox = new InMemoryOutbox(3);
    outbox.add('12');
    outbox.failing.add('12');
    const r = runner(redis.fresh(), [{ name: 'deliver-mail', everyMs: 60_000, run: () => outbox.drain(), outbox: outbox.lane }]);
    await r.start();
    const deadline = Date.now() + 10_000;
    while ((await r.failed(0, 10)).total === 0 && Date.now() < deadline) await sleep(50);
    const failed = await r.failed(0, 10);
    // The job's id is the row's: what the admin panel shows names the table row.
    expect(failed.items).toEqual([
      expect.objectContaining({ id: 'deliver-mail-12', name: 'deliver-mail', attempts: 3, error: 'refused 12' }),
    ]);
    expect(outbox.status('12')).toBe('failed');
    expect(await r.counts()).toEqual({ waiting: 0, active: 0, delayed: 0, failed: 1 });
    outbox.failing.delete('12');
    expect(await r.retry('deliver-mail-12')).toBe(true);
    while (outbox.deliveries.length === 0 && Date.now() < deadline) await sleep(20);
    expect(outbox.deliveries).toEqual(['12']);
    expect(outbox.tries.get('12')).toBe(4);
    await r.stop();
  });

  it('relays a row as soon as a service says it committed one, long before the next pass', async () => {
    const outbox = new InMemoryOutbox(3);
    const signal = new OutboxSignal();
    const connections = new RedisConnections(TEST_REDIS_URL, redis.fresh(), { down: () => {}, up: () => {} });
    opened.push(connections);
    const r = new BullJobRunner(
      connections,
      [{ name: 'deliver-mail', everyMs: 60_000, run: () => outbox.drain(), outbox: outbox.lane }],
      { concurrency: 2, attempts: 3, backoffMs: 20, relayEveryMs: 60_000 },
      { failed: () => {} },
      signal,
    );
    expect(signal.relaying).toBe(false);
    await r.start();
    expect(signal.relaying).toBe(true);
    await sleep(200);
    outbox.add('7');
    const before = Date.now();
    signal.committed('deliver-mail');
    while (outbox.deliveries.length === 0 && Date.now() - before < 5_000) await sleep(10);
    expect(outbox.deliveries).toEqual(['7']);
    expect(Date.now() - before).toBeLessThan(2_000);
    await r.stop();
    // Stopped: the services deliver by themselves again.
    expect(signal.relaying).toBe(false);
  });
});
