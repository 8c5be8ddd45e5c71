import { Redis, type RedisOptions } from 'ioredis';

/** Where a Redis connection's failures and recoveries are reported (one JSON line each, not one per retry). */
export interface RedisFailureLog {
  down(details: { connection: string; err: string }): void;
  up(details: { connection: string; down_ms: number }): void;
}

/**
 * Plaza's connections to one Redis server (REDIS_URL), every key under `prefix`.
 *
 * - `commands` serves requests (rate limits, Fedify's key-value store): with Redis away, a command fails
 *   at once (no offline queue, one attempt) so that the caller falls back instead of hanging a request.
 * - `blocking()` makes a connection for BullMQ's workers and queues, which wait for Redis and retry
 *   forever (`maxRetriesPerRequest: null`, as BullMQ requires): jobs wait while Redis is down and resume.
 *
 * Every connection reconnects on its own (ioredis), pausing from 100 ms doubling to 5 s.
 */
export class RedisConnections {
  readonly commands: Redis;
  private readonly others: Redis[] = [];

  constructor(
    readonly url: string,
    readonly prefix: string,
    private readonly log: RedisFailureLog,
  ) {
    this.commands = this.open('commands', { enableOfflineQueue: false, maxRetriesPerRequest: 1 });
  }

  /** A connection for BullMQ (a Queue, a Worker): commands wait for Redis instead of failing. */
  blocking(name: string): Redis {
    const connection = this.open(name, { maxRetriesPerRequest: null, enableOfflineQueue: true });
    this.others.push(connection);
    return connection;
  }

  /**
   * Waits until the request connection is up, at most `timeoutMs`: true when it is. Start-up waits a
   * little so that the first requests find it; a Redis still away after that is not a reason to stop.
   */
  waitReady(timeoutMs: number): Promise<boolean> {
    if (this.ready) return Promise.resolve(true);
    return new Promise((resolve) => {
      const done = (up: boolean) => {
        clearTimeout(timer);
        this.commands.off('ready', onReady);
        resolve(up);
      };
      const onReady = () => done(true);
      const timer = setTimeout(() => done(false), timeoutMs);
      this.commands.on('ready', onReady);
    });
  }

  /** Whether the request connection is up now. */
  get ready(): boolean {
    return this.commands.status === 'ready';
  }

  private open(name: string, options: RedisOptions): Redis {
    const connection = new Redis(this.url, {
      ...options,
      lazyConnect: false,
      connectTimeout: 2_000,
      retryStrategy: (times) => Math.min(100 * 2 ** Math.min(times, 6), 5_000),
    });
    let downSince: number | null = null;
    connection.on('error', (err: Error) => {
      if (downSince !== null) return;
      downSince = Date.now();
      this.log.down({ connection: name, err: err.message });
    });
    connection.on('ready', () => {
      if (downSince === null) return;
      this.log.up({ connection: name, down_ms: Date.now() - downSince });
      downSince = null;
    });
    return connection;
  }

  /** Closes every connection (after the workers have drained). */
  async close(): Promise<void> {
    await Promise.all(
      [this.commands, ...this.others].map(async (c) => {
        if (c.status === 'end') return;
        if (c.status !== 'ready') return c.disconnect();
        // QUIT answers at once from a Redis that is up; a connection that hangs anyway is cut.
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([c.quit().catch(() => {}), new Promise((resolve) => (timer = setTimeout(resolve, 1_000)))]);
        clearTimeout(timer);
        if ((c.status as string) !== 'end') c.disconnect();
      }),
    );
  }
}

/** `redis://` or `rediss://` with a host: what REDIS_URL must look like. */
export function redisUrlProblem(url: string): string | null {
  try {
    const u = new URL(url);
    if (u.protocol !== 'redis:' && u.protocol !== 'rediss:') return 'must start with redis:// or rediss://';
    if (!u.hostname) return 'must name a host, e.g. redis://127.0.0.1:6379';
    if (u.pathname && u.pathname !== '/' && !/^\/\d{1,2}$/.test(u.pathname)) return 'may end only with a database number, e.g. /0';
    return null;
  } catch {
    return 'must be a URL such as redis://127.0.0.1:6379';
  }
}
