import type { OutboxLane } from './outbox-lane.js';

/** A periodic housekeeping job (mail and push retries, federation deliveries, timeline fan-out, purges…). */
export interface RunnableJob {
  name: string;
  everyMs: number;
  /** One pass over the job's work: what the timers run (and BullMQ, for a job without `outbox`). */
  run: () => Promise<unknown>;
  /**
   * The job drains an outbox table (docs/decisions/0215): BullMQ relays its rows, one job each,
   * instead of running `run` on a schedule; timers keep running `run`.
   */
  outbox?: OutboxLane;
}

/**
 * What runs the periodic jobs (docs/decisions/0160). Two adapters: timers in each instance (the
 * default: SQLite, one server) and BullMQ on Redis (REDIS_URL: one run per period across every
 * instance, retries with backoff, failed runs kept). Either way a job's own work is idempotent under
 * the conditional claims of its rows, so a run repeated after a crash delivers nothing twice.
 */
export interface JobRunner {
  /** Starts running the jobs it was made with. */
  start(): Promise<void>;
  /** No run starts from now on; resolves once the runs in progress have ended. */
  stop(): Promise<void>;
}

/** A run that failed every attempt, kept for an administrator (the dead letters of the job runner). */
export interface FailedJobRun {
  id: string;
  name: string;
  attempts: number;
  error: string;
  /** ISO 8601, UTC. */
  failed_at: string;
}

/** What a BullMQ queue holds now (/metrics, the Jobs page). A type, not an interface: a record of numbers. */
export type QueueCounts = {
  waiting: number;
  active: number;
  /** Waiting for a retry's backoff (or a later start). */
  delayed: number;
  /** Kept after their last attempt failed: the dead letters. */
  failed: number;
};

/** The failed runs, for the admin panel's Jobs page: BullMQ keeps them; timers keep none (their failures are only logged). */
export interface FailedJobRuns {
  readonly engine: 'timers' | 'bullmq';
  /** The queue's counts; null for timers, which hold no queue (the tables are the queue). */
  counts(): Promise<QueueCounts | null>;
  /** Most recent first. */
  failed(offset: number, limit: number): Promise<{ items: FailedJobRun[]; total: number }>;
  /** Runs a failed run again now; false when it is no longer failed. */
  retry(id: string): Promise<boolean>;
  /** Forgets a failed run; false when it is no longer failed. */
  discard(id: string): Promise<boolean>;
}

/** Where a run's failure is reported (the server's log), one line each. */
export type JobFailureLog = (job: string, error: unknown) => void;

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

/** The jobs on timers inside this process: each instance runs every job; a failed run waits for the next period. */
export class TimerJobRunner implements JobRunner, FailedJobRuns {
  readonly engine = 'timers' as const;
  private stops: (() => Promise<void>)[] = [];

  constructor(
    private readonly jobs: readonly RunnableJob[],
    private readonly log: JobFailureLog,
  ) {}

  async start(): Promise<void> {
    this.stops = this.jobs.map((job) => repeat(job.everyMs, () => job.run().catch((error) => this.log(job.name, error))));
  }

  async stop(): Promise<void> {
    await Promise.all(this.stops.map((stop) => stop()));
  }

  async failed(): Promise<{ items: FailedJobRun[]; total: number }> {
    return { items: [], total: 0 };
  }

  async counts(): Promise<null> {
    return null;
  }

  async retry(): Promise<boolean> {
    return false;
  }

  async discard(): Promise<boolean> {
    return false;
  }
}
