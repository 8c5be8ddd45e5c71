import type { Container } from 'inversify';
import type { Logger } from 'pino';
import { resolveAll } from './wiring/feature-module.js';
import { Jobs } from './wiring/tokens.js';

/**
 * Starts every module's housekeeping jobs inside the server process. Returns what stops them: no run
 * starts after it is called, and it resolves once the runs in progress have ended (so the database
 * can close under none).
 */
export function startJobs(container: Container, logger: Logger): () => Promise<void> {
  const stops = resolveAll(container, Jobs).map((job) =>
    repeat(job.everyMs, () => job.run().catch((err) => logger.error({ err, job: job.name }, 'periodic job failed'))),
  );
  return async () => {
    await Promise.all(stops.map((stop) => stop()));
  };
}

/**
 * Runs `run` every `everyMs` counted from the end of the previous run: a run slower than the period
 * delays the next one instead of overlapping it (a chained setTimeout, not setInterval). `run` handles
 * its own failures; one that rejects anyway still schedules the next run.
 */
export function repeat(everyMs: number, run: () => Promise<unknown>): () => Promise<void> {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> | null = null;
  const schedule = () => {
    timer = setTimeout(() => {
      running = run()
        .catch(() => {})
        .finally(() => {
          running = null;
          if (!stopped) schedule();
        });
    }, everyMs);
    timer.unref();
  };
  schedule();
  return async () => {
    stopped = true;
    clearTimeout(timer);
    await running;
  };
}
