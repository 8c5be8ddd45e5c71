import { type Job, Queue, Worker } from 'bullmq';
import {
  type FailedJobRun,
  type FailedJobRuns,
  type JobRunner,
  type OutboxSignal,
  type QueueCounts,
  type RunnableJob,
  repeat,
} from '@plaza/domain';
import type { Redis } from 'ioredis';
import type { RedisConnections } from './connection.js';

export interface BullJobOptions {
  /** Runs at once in this instance's one worker pool. */
  concurrency: number;
  /** Attempts of a run that throws, `backoffMs` doubling between them, before it is kept as failed. */
  attempts: number;
  backoffMs: number;
  /** How often this instance relays committed outbox rows to BullMQ (besides at once after a commit it is told of). */
  relayEveryMs?: number;
}

/** The rows relayed per outbox per pass; a fuller outbox is relayed again at once. */
const RELAY_BATCH = 100;

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
  private stopRelay: (() => Promise<void>) | null = null;
  private unlisten: (() => void) | null = null;
  private relaying: Promise<void> | null = null;
  private relayAgain = false;

  constructor(
    private readonly redis: RedisConnections,
    jobs: readonly RunnableJob[],
    private readonly options: BullJobOptions,
    private readonly log: JobRunLog,
    /** Where the services say they committed outbox rows, so they are relayed at once. */
    private readonly signal?: OutboxSignal,
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
    if (work) {
      this.startWorker();
      this.startRelay();
    }
    if (this.queueConnection.status === 'ready') await declared;
  }

  private async declare(): Promise<void> {
    for (const job of this.jobs.values()) {
      // An outbox is relayed row by row, not polled: drop the schedule an older version declared for it.
      if (job.outbox) {
        await this.queue.removeJobScheduler(job.name);
        continue;
      }
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
    const row = (run.data as { row?: unknown } | undefined)?.row;
    if (typeof row === 'string' && job.outbox) {
      // attemptsMade counts the attempts that failed before this one.
      await job.outbox.deliver(row, run.attemptsMade + 1 >= (run.opts.attempts ?? 1));
      return null;
    }
    await job.run();
    return null;
  }

  /**
   * The relay (docs/decisions/0215): every committed, due outbox row nobody holds is claimed with its
   * table's lease and added as one job whose id is the row's, so a row relayed twice (two instances,
   * a lease run out while its job waits) is one job. Rows stay in their table until delivered: with
   * Redis away nothing is claimed, and a row claimed whose job was not added is due again after its lease.
   */
  private startRelay(): void {
    const lanes = [...this.jobs.values()].filter((j) => j.outbox);
    if (lanes.length === 0) return;
    this.stopRelay = repeat(this.options.relayEveryMs ?? 1_000, () => this.relay());
    this.unlisten = this.signal?.listen(() => void this.relay()) ?? null;
    void this.relay();
  }

  /** One relay pass at a time per instance; a request for one during a pass makes one more after it. */
  private relay(): Promise<void> {
    if (this.relaying) {
      this.relayAgain = true;
      return this.relaying;
    }
    this.relaying = (async () => {
      do {
        this.relayAgain = false;
        for (const job of this.jobs.values()) {
          if (!job.outbox || !this.redis.ready) continue;
          try {
            const ids = await job.outbox.claimDue(RELAY_BATCH);
            if (ids.length === RELAY_BATCH) this.relayAgain = true;
            if (ids.length > 0)
              await this.queue.addBulk(ids.map((id) => ({ name: job.name, data: { row: id }, opts: this.rowOptions(job.name, id) })));
          } catch {
            // The database or Redis failed: what was claimed is due again once its lease runs out.
          }
        }
      } while (this.relayAgain && this.stopRelay);
    })().finally(() => {
      this.relaying = null;
    });
    return this.relaying;
  }

  private rowOptions(name: string, id: string) {
    return {
      jobId: `${name}-${id}`,
      attempts: this.options.attempts,
      backoff: { type: 'exponential', delay: this.options.backoffMs },
      // Removed once done, so its id is free should the row ever be relayed again; failures kept.
      removeOnComplete: true,
      removeOnFail: { count: 1000 },
    };
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

  /** How many runs and relayed rows wait, run, wait for a retry and failed (tests, /metrics, the Jobs page). */
  async counts(): Promise<QueueCounts> {
    const c = await this.queue.getJobCounts('wait', 'delayed', 'active', 'failed');
    return { waiting: c.wait ?? 0, active: c.active ?? 0, delayed: c.delayed ?? 0, failed: c.failed ?? 0 };
  }

  /**
   * Stops taking runs and waits for those in progress to end (SIGTERM's drain). A run cut short by a
   * crash instead is taken again by another worker once its lock expires (BullMQ's stalled check).
   */
  async stop(): Promise<void> {
    this.unlisten?.();
    const stopRelay = this.stopRelay;
    this.stopRelay = null;
    await stopRelay?.();
    await this.relaying;
    if (this.redis.ready) {
      await this.worker?.close();
      await this.queue.close();
    } else {
      // Redis away: no run can be in progress past its lock, and nothing waits to be acknowledged.
      await Promise.all([this.worker?.close(true), this.queue.disconnect()]);
    }
  }
}
