import type { Container } from 'inversify';
import type { Logger } from 'pino';
import { resolveAll } from './wiring/feature-module.js';
import { Jobs } from './wiring/tokens.js';

/** Starts every module's housekeeping jobs inside the server process; returns what stops them. */
export function startJobs(container: Container, logger: Logger): () => void {
  const timers = resolveAll(container, Jobs).map((job) => {
    const timer = setInterval(() => {
      job.run().catch((err) => logger.error({ err, job: job.name }, 'periodic job failed'));
    }, job.everyMs);
    timer.unref();
    return timer;
  });
  return () => timers.forEach(clearInterval);
}
