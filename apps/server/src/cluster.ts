import cluster, { type Worker } from 'node:cluster';
import type { Logger } from 'pino';

/**
 * `API_WORKERS=N` (docs/decisions/0073): a node:cluster primary that serves nothing itself and keeps N
 * worker processes, which share the listening port (the primary hands connections round-robin).
 * - The first worker starts alone: it runs the migrations and the periodic jobs (`PLAZA_JOBS=1` in its
 *   environment); the others start once it is ready (`workerReady`), and run no jobs, so no job runs
 *   twice at once and no two processes migrate together.
 * - A worker that dies unexpectedly is replaced (the replacement of the first one takes the jobs);
 *   one that exits before it ever served (the database never answered, docs/decisions/0101) stops them
 *   all and the primary exits with its code: replacing it would only repeat the failure in a loop, and
 *   the supervisor (systemd, Docker) decides when to try again.
 * - SIGTERM or SIGINT to the primary is passed to every worker, which finishes its requests in flight
 *   and closes its database (server.ts); the primary exits when the last worker has.
 */
export function runPrimary(workers: number, log: Logger): void {
  let stopping = false;
  let exitCode = 0;
  const roles = new Map<Worker, boolean>();
  const served = new Set<Worker>();
  const fork = (jobs: boolean): Worker => {
    const worker = cluster.fork({ PLAZA_JOBS: jobs ? '1' : '0' });
    roles.set(worker, jobs);
    return worker;
  };

  log.info({ workers }, 'Plaza primary starting its workers');
  cluster.on('message', (worker, message) => {
    if ((message as { plaza?: string })?.plaza === 'ready') served.add(worker);
  });
  const first = fork(true);
  // Once the first has migrated the database and serves (it says so with `ready`), the others start.
  const onReady = (message: unknown) => {
    if ((message as { plaza?: string })?.plaza !== 'ready') return;
    first.off('message', onReady);
    for (let i = 1; i < workers; i++) fork(false);
  };
  first.on('message', onReady);
  cluster.on('exit', (worker, code, signal) => {
    const jobs = roles.get(worker) ?? false;
    roles.delete(worker);
    const everServed = served.delete(worker);
    if (stopping) {
      if (roles.size > 0) return;
      if (exitCode === 0) log.info('Plaza primary stopped');
      process.exit(exitCode);
    }
    if (!everServed) {
      log.fatal({ worker: worker.process.pid, exit: signal ?? code }, 'a worker failed to start; stopping the others');
      exitCode = code || 1;
      stop('SIGTERM');
      if (roles.size === 0) process.exit(exitCode);
      return;
    }
    log.warn({ worker: worker.process.pid, exit: signal ?? code }, 'worker exited; starting another');
    fork(jobs);
  });
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal, workers: roles.size }, 'Plaza primary stopping its workers');
    for (const worker of roles.keys()) worker.process.kill(signal);
    setTimeout(() => process.exit(1), 12_000).unref();
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
}

/** Whether this process is a worker that should not run the periodic jobs. */
export function isSecondaryWorker(): boolean {
  return cluster.isWorker && process.env.PLAZA_JOBS === '0';
}

/** Tells the primary, if any, that this worker has started and serves. */
export function workerReady(): void {
  if (cluster.isWorker) process.send?.({ plaza: 'ready' });
}
