import { type Job, Queue, Worker } from 'bullmq';
import type { FailedJobRun, FailedJobRuns, JobRunner, RunnableJob } from '@plaza/domain';
import type { Redis } from 'ioredis';
import type { RedisConnections } from './connection.js';

export interface BullJobOptions {
  /** Runs at once in this instance's one worker pool. */
  concurrency: number;
  /** Attempts of a run that throws, `backoffMs` doubling between them, before it is kept as failed. */
  attempts: number;
  backoffMs: number;
}

/** Where run failures are reported: one JSON line each. */
export interface JobRunLog {
  failed(details: { job: string; run: string; attempt: number; attempts: number; err: string }): void;
}

const QUEUE = 'jobs';

/**
 * The periodic jobs on BullMQ (REDIS_URL set; docs/decisions/0160). Each job is one BullMQ job
 * scheduler, so however many instances run, each period's run is made once and taken by one worker of
 * one instance, instead of every instance polling every table. A run that throws is retried with
 * exponential backoff; after its last attempt it stays in the failed set (the dead letters), shown on
 * the admin panel's queue page, until retried or discarded there.
 *
 * What the jobs deliver (mail, pushes, federation messages, fan-outs) stays in database tables written
 * in the request's own unit of work: a Redis write cannot join that transaction, and an outbox row is
 * neither lost when Redis is away nor sent when the request rolled back. Redis decides when and where
 * a run happens; the rows' conditional claims still make each delivery happen once.
 *
 * While Redis is away the worker waits (its connection retries) and the runs resume when it is back.
 */
export class BullJobRunner implements JobRunner, FailedJobRuns {
  readonly engine = 'bullmq' as const;
  private readonly queue: Queue;
  private readonly queueConnection: Redis;
  private worker: Worker | null = null;
  private readonly jobs: Map<string, RunnableJob>;

  constructor(
    private readonly redis: RedisConnections,
    jobs: readonly RunnableJob[],
    private readonly options: BullJobOptions,
    private readonly log: JobRunLog,
  ) {
    this.jobs = new Map(jobs.map((j) => [j.name, j]));
    this.queueConnection = redis.blocking('jobs-queue');
    this.queue = new Queue(QUEUE, { connection: this.queueConnection, prefix: this.bullPrefix });
  }

  private get bullPrefix(): string {
    return `${this.redis.prefix}bull`;
  }

  /**
   * Declares every job's schedule (idempotent: each instance starting does the same) and starts this
   * instance's worker pool. The schedules are declared again whenever the connection comes back: a
   * Redis restarted without its data (no persistence, a new node) gets them again and the jobs resume.
   * `work: false` only declares (a cluster worker without the jobs).
   */
  async start(work = true): Promise<void> {
    this.queue.on('error', () => {});
    // Not awaited when Redis is away: the start goes on, and the schedules are declared once it is back.
    const declared = this.declare().catch(() => {});
    this.queueConnection.on('ready', () => {
      this.declare().catch(() => {});
    });
    if (work) this.startWorker();
    if (this.queueConnection.status === 'ready') await declared;
  }

  private async declare(): Promise<void> {
    for (const job of this.jobs.values()) {
      await this.queue.upsertJobScheduler(
        job.name,
        { every: job.everyMs },
        {
          name: job.name,
          opts: {
            attempts: this.options.attempts,
            backoff: { type: 'exponential', delay: this.options.backoffMs },
            removeOnComplete: { count: 100 },
            removeOnFail: { count: 1000 },
          },
        },
      );
    }
  }

  private startWorker(): void {
    this.worker = new Worker(QUEUE, (run: Job) => this.run(run), {
      connection: this.redis.blocking('jobs-worker'),
      prefix: this.bullPrefix,
      concurrency: this.options.concurrency,
    });
    this.worker.on('failed', (run, err) => {
      if (!run) return;
      this.log.failed({ job: run.name, run: run.id ?? '', attempt: run.attemptsMade, attempts: this.options.attempts, err: err.message });
    });
    // Connection errors are reported by the connection itself, once per outage.
    this.worker.on('error', () => {});
  }

  private async run(run: Job): Promise<unknown> {
    const job = this.jobs.get(run.name);
    // A schedule of a job this version no longer has (an older instance's): nothing to run.
    if (!job) return null;
    await job.run();
    return null;
  }

  /** Runs whose every attempt failed, most recent first. */
  async failed(offset: number, limit: number): Promise<{ items: FailedJobRun[]; total: number }> {
    const [runs, total] = await Promise.all([this.queue.getFailed(offset, offset + limit - 1), this.queue.getFailedCount()]);
    return {
      items: runs.map((r) => ({
        id: r.id ?? '',
        name: r.name,
        attempts: r.attemptsMade,
        error: (r.failedReason ?? '').slice(0, 1000),
        failed_at: new Date(r.finishedOn ?? r.timestamp).toISOString(),
      })),
      total,
    };
  }

  /** Runs a failed run again, now; false when it is no longer failed. */
  async retry(id: string): Promise<boolean> {
    const run = await this.queue.getJob(id);
    if (!run || !(await run.isFailed())) return false;
    await run.retry('failed');
    return true;
  }

  /** Forgets a failed run; false when it is no longer failed. */
  async discard(id: string): Promise<boolean> {
    const run = await this.queue.getJob(id);
    if (!run || !(await run.isFailed())) return false;
    await run.remove();
    return true;
  }

  /** How many runs wait, run and failed (for tests and metrics). */
  counts(): Promise<Record<string, number>> {
    return this.queue.getJobCounts('wait', 'delayed', 'active', 'failed', 'completed');
  }

  /**
   * Stops taking runs and waits for those in progress to end (SIGTERM's drain). A run cut short by a
   * crash instead is taken again by another worker once its lock expires (BullMQ's stalled check).
   */
  async stop(): Promise<void> {
    if (this.redis.ready) {
      await this.worker?.close();
      await this.queue.close();
    } else {
      // Redis away: no run can be in progress past its lock, and nothing waits to be acknowledged.
      await Promise.all([this.worker?.close(true), this.queue.disconnect()]);
    }
  }
}
