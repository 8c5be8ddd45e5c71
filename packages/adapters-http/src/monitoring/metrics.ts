import cluster from 'node:cluster';
import { AggregatorRegistry, collectDefaultMetrics, Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { AnyOperation } from '../http/operation.js';
import { instanceMetrics } from './cluster-metrics.js';

/** Seconds: a cached read takes a few milliseconds, a login's hash a few hundred, a slow export seconds. */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const JOB_BUCKETS = [0.01, 0.05, 0.25, 1, 5, 30, 120];

export interface PoolUse {
  inUse: number;
  free: number;
  queued: number;
}

/** What the metrics read from the rest of the server when scraped (nothing on a request's path). */
export interface MetricsSources {
  /** The database pool's connections now. */
  pool(): PoolUse;
  /** Statements that failed since start. */
  statementErrors(): number;
  /**
   * Rows waiting in each work queue, read from the database: instance-wide figures, so with
   * API_WORKERS only the worker that runs the jobs gives them (docs/decisions/0103).
   */
  queueDepths?(): Promise<Record<string, number>>;
  /**
   * BullMQ's jobs by state (waiting, active, delayed, failed), with REDIS_URL (docs/decisions/0215);
   * null on timers, which hold no queue. Instance-wide, as the depths.
   */
  bullmqCounts?(): Promise<Record<string, number> | null>;
}

type StatusCounter = ReturnType<Counter<'script' | 'operation' | 'status'>['labels']>;
type LatencyHistogram = ReturnType<Histogram<'script' | 'operation'>['labels']>;

/**
 * The series of one script operation, bound once: a request adds one to its status's counter and one
 * observation to the histogram, allocating nothing (a status is bound the first time it is answered).
 */
export class RequestSeries {
  private readonly byStatus = new Map<number, StatusCounter>();

  constructor(
    private readonly total: Counter<'script' | 'operation' | 'status'>,
    private readonly latency: LatencyHistogram,
    private readonly script: string,
    private readonly operation: string,
  ) {}

  observe(status: number, seconds: number): void {
    let counter = this.byStatus.get(status);
    if (!counter) {
      counter = this.total.labels(this.script, this.operation, String(status));
      this.byStatus.set(status, counter);
    }
    counter.inc();
    this.latency.observe(seconds);
  }
}

/**
 * The name of an operation in the `operation` label: its method and declared selector
 * (`POST action=login`, `GET path=:id/members`, `GET has=id`), never a value from the request, so the
 * label's values are bounded by the declarations.
 */
export function operationLabel(operation: AnyOperation): string {
  const select = operation.select;
  const parts = [
    ...(select?.action ? [`action=${select.action}`] : []),
    ...(select?.path ? [`path=${select.path}`] : []),
    ...(select?.has?.length ? [`has=${select.has.join(',')}`] : []),
  ];
  return parts.length ? `${operation.method} ${parts.join(' ')}` : operation.method;
}

/** Requests by script, operation and status, and their latency. */
export class RequestMetrics {
  private readonly total: Counter<'script' | 'operation' | 'status'>;
  private readonly latency: Histogram<'script' | 'operation'>;
  private readonly series = new Map<string, RequestSeries>();
  private readonly ofOperation = new WeakMap<AnyOperation, RequestSeries>();

  constructor(registry: Registry) {
    this.total = new Counter({
      name: 'plaza_http_requests_total',
      help: 'HTTP requests answered, by script, declared operation and status',
      labelNames: ['script', 'operation', 'status'],
      registers: [registry],
    });
    this.latency = new Histogram({
      name: 'plaza_http_request_duration_seconds',
      help: "Time from a request's arrival to its answer, by script and declared operation",
      labelNames: ['script', 'operation'],
      buckets: LATENCY_BUCKETS,
      registers: [registry],
    });
  }

  /**
   * The series of a script's operation, or of a request that reached no operation: `operation` is then
   * a fixed word (`(unresolved)`), and `script` a fixed category for URLs that are no script.
   */
  of(script: string, operation: string): RequestSeries {
    const key = `${script} ${operation}`;
    let found = this.series.get(key);
    if (!found) {
      found = new RequestSeries(this.total, this.latency.labels(script, operation), script, operation);
      this.series.set(key, found);
    }
    return found;
  }

  /** The series of a declared operation, looked up without building a key (the hot path). */
  ofDeclared(script: string, operation: AnyOperation): RequestSeries {
    let found = this.ofOperation.get(operation);
    if (!found) {
      found = this.of(script, operationLabel(operation));
      this.ofOperation.set(operation, found);
    }
    return found;
  }
}

/** Runs and failures of the periodic jobs, and how long a run takes. */
export class JobMetrics {
  private readonly runs: Counter<'job'>;
  private readonly failures: Counter<'job'>;
  private readonly duration: Histogram<'job'>;

  constructor(registry: Registry) {
    this.runs = new Counter({
      name: 'plaza_job_runs_total',
      help: 'Runs of a periodic job, ended or failed',
      labelNames: ['job'],
      registers: [registry],
    });
    this.failures = new Counter({
      name: 'plaza_job_failures_total',
      help: 'Runs of a periodic job that failed',
      labelNames: ['job'],
      registers: [registry],
    });
    this.duration = new Histogram({
      name: 'plaza_job_duration_seconds',
      help: 'Time a periodic job run took',
      labelNames: ['job'],
      buckets: JOB_BUCKETS,
      registers: [registry],
    });
  }

  /** `run`, counted under `job`: its failure is counted and passed on unchanged. */
  observe<T>(job: string, run: () => Promise<T>): () => Promise<T> {
    const runs = this.runs.labels(job);
    const failures = this.failures.labels(job);
    const duration = this.duration.labels(job);
    // Present from the start, at zero: an alert on failures needs the series before the first one.
    runs.inc(0);
    failures.inc(0);
    return async () => {
      const end = duration.startTimer();
      try {
        return await run();
      } catch (error) {
        failures.inc();
        throw error;
      } finally {
        runs.inc();
        end();
      }
    };
  }
}

/**
 * Every metric of one server, in a registry of its own (tests run several servers in one process).
 * The registry is prom-client's AggregatorRegistry, which in a node:cluster worker also answers the
 * primary's requests for this worker's figures (docs/decisions/0103).
 */
export class PlazaMetrics {
  readonly registry: AggregatorRegistry<'text/plain; version=0.0.4; charset=utf-8'>;
  readonly requests: RequestMetrics;
  readonly jobs: JobMetrics;

  constructor() {
    this.registry = new AggregatorRegistry();
    // A worker answers the primary from this registry rather than prom-client's global one.
    AggregatorRegistry.setRegistries([this.registry]);
    // Process figures and the event loop's delay (nodejs_eventloop_lag_*), each read at scrape time.
    collectDefaultMetrics({ register: this.registry });
    this.requests = new RequestMetrics(this.registry);
    this.jobs = new JobMetrics(this.registry);
  }

  /** The database's figures and the queues, once the database is open. */
  watch(sources: MetricsSources): void {
    const registers = [this.registry];
    new Gauge({
      name: 'plaza_db_pool_connections',
      help: 'Database connections in use, free, and requests queued for one (SQLite: its one connection)',
      labelNames: ['state'],
      registers,
      collect() {
        const use = sources.pool();
        this.set({ state: 'in_use' }, use.inUse);
        this.set({ state: 'free' }, use.free);
        this.set({ state: 'queued' }, use.queued);
      },
    });
    new Counter({
      name: 'plaza_db_statement_errors_total',
      help: 'Database statements that failed, constraint violations included',
      registers,
      collect() {
        this.reset();
        this.inc(sources.statementErrors());
      },
    });
    const bull = sources.bullmqCounts;
    if (bull) {
      new Gauge({
        name: 'plaza_bullmq_jobs',
        help: "BullMQ's jobs by state (waiting, active, delayed, failed): periodic runs and relayed outbox rows; absent without REDIS_URL",
        labelNames: ['queue', 'state'],
        aggregator: 'max',
        registers,
        async collect() {
          this.reset();
          try {
            const counts = await bull();
            if (counts) for (const [state, n] of Object.entries(counts)) this.set({ queue: 'jobs', state }, n);
          } catch {
            // Redis does not answer: no counts this scrape (its connection logged the outage).
          }
        },
      });
    }
    const depths = sources.queueDepths;
    if (!depths) return;
    new Gauge({
      name: 'plaza_queue_depth',
      help: 'Rows waiting in a work queue (mail, push, federation, timeline_fanout), counted up to 100000',
      labelNames: ['queue'],
      // One worker gives them (see MetricsSources); the largest is right even if several did.
      aggregator: 'max',
      registers,
      async collect() {
        this.reset();
        try {
          for (const [queue, depth] of Object.entries(await depths())) this.set({ queue }, depth);
        } catch {
          // The database does not answer: no depth this scrape, the rest still answers (the pool and
          // the statement errors tell why).
        }
      },
    });
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  /**
   * The metrics in the Prometheus text format: in a node:cluster worker, the whole instance's, which
   * the primary gathers from every worker (`serveClusterMetrics`); else this process's.
   */
  render(): Promise<string> {
    return cluster.isWorker ? instanceMetrics() : this.registry.metrics();
  }
}
