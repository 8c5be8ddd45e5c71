import { type JobRunner, TimerJobRunner } from '@plaza/domain';
import { BullJobRunner, type RedisConnections } from '@plaza/adapters-integrations/redis';
import type { Container } from 'inversify';
import type { Logger } from 'pino';
import type { Config } from './config.js';
import { resolveAll } from './wiring/feature-module.js';
import { Jobs } from './wiring/tokens.js';

export { repeat } from '@plaza/domain';

/**
 * The instance's job runner (docs/decisions/0160): BullMQ's one worker pool when Redis is configured,
 * timers in this process otherwise. Each failed run is one JSON line.
 */
export function jobRunner(container: Container, config: Config, redis: RedisConnections | null, logger: Logger): JobRunner {
  const jobs = resolveAll(container, Jobs);
  if (!redis || !config.redis) return new TimerJobRunner(jobs, (job, err) => logger.error({ err, job }, 'periodic job failed'));
  return new BullJobRunner(redis, jobs, config.redis.jobs, {
    failed: (details) => logger.error({ job_run: details }, 'periodic job failed'),
  });
}

/**
 * Starts every module's housekeeping jobs inside the server process. Returns what stops them: no run
 * starts after it is called, and it resolves once the runs in progress have ended (so the database
 * can close under none).
 */
export function startJobs(runner: JobRunner, logger: Logger): () => Promise<void> {
  const started = runner.start().catch((err) => logger.error({ err }, 'the job runner did not start'));
  return async () => {
    await started;
    await runner.stop();
  };
}
