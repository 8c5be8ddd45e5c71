import { type RunnableJob, TimerJobRunner } from '@plaza/domain';
import { jobRunnerContract } from '@plaza/domain/shared/testing';
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
jobRunnerContract('bullmq', async (jobs) => {
  // Each runner on keys of its own, under the file's prefix that useTestRedis deletes afterwards.
  const connections = new RedisConnections(TEST_REDIS_URL, redis.fresh(), { down: () => {}, up: () => {} });
  opened.push(connections);
  return new BullJobRunner(connections, jobs, { concurrency: 2, attempts: 3, backoffMs: 20 }, { failed: () => {} });
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
});
