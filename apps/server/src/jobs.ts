import type { JobRunner } from '@plaza/domain';
import type { Logger } from 'pino';

export { repeat } from '@plaza/domain';

/**
 * Starts the instance's job runner (Platform.JobRunner: BullMQ with Redis, timers otherwise; docs/decisions/0160).
 * Returns what stops it: no run starts after it is called, and it resolves once the runs in progress
 * have ended (so the database can close under none).
 */
export function startJobs(runner: JobRunner, logger: Logger): () => Promise<void> {
  const started = runner.start().catch((err) => logger.error({ err }, 'the job runner did not start'));
  return async () => {
    await started;
    await runner.stop();
  };
}
