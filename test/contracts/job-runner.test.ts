import { TimerJobRunner } from '@plaza/domain';
import { jobRunnerContract } from '@plaza/domain/shared/testing';
import { BullJobRunner, RedisConnections } from '@plaza/adapters-integrations/redis';
import { afterAll } from 'vitest';
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
