import { type MetricsEndpoint, PlazaMetrics } from '@plaza/adapters-http';
import type { DatabaseHandle } from '@plaza/adapters-mysql';
import { SqlQueueDepths } from '@plaza/adapters-mysql/monitoring';
import type { Container } from 'inversify';
import type { Config } from './config.js';
import { resolve, resolveAll } from './wiring/feature-module.js';
import { Platform } from './modules/platform.module.js';
import { Jobs } from './wiring/tokens.js';

/**
 * GET /metrics (docs/decisions/0103), when API_METRICS or API_METRICS_TOKEN turns it on: the request
 * counters the HTTP app keeps, the database's pool and failed statements, every job's runs, and, where
 * `instanceFigures` (the process that runs the jobs), the depth of the work queues. Null when off:
 * then nothing is counted at all.
 */
export function watchMetrics(
  config: Config,
  container: Container,
  database: DatabaseHandle,
  instanceFigures: boolean,
): MetricsEndpoint | null {
  if (!config.metrics.enabled) return null;
  const metrics = new PlazaMetrics();
  const queues = new SqlQueueDepths(database.root);
  metrics.watch({
    pool: () => database.poolUse(),
    statementErrors: () => database.queries.failed,
    ...(instanceFigures ? { queueDepths: () => queues.depths(), bullmqCounts: () => resolve(container, Platform.JobRunner).counts() } : {}),
  });
  // The jobs are singletons: wrapping their run here counts every run, the runner's and a test's, and
  // every delivery of a row BullMQ relayed (docs/decisions/0215).
  for (const job of resolveAll(container, Jobs)) {
    job.run = metrics.jobs.observe(job.name, job.run);
    const lane = job.outbox;
    if (lane)
      job.outbox = {
        claimDue: (limit) => lane.claimDue(limit),
        deliver: (id, last) => metrics.jobs.observe(job.name, () => lane.deliver(id, last))(),
      };
  }
  return { metrics, token: config.metrics.token };
}
