import { RATE_LIMIT_WINDOW_SECONDS, type RateLimitStore } from '@plaza/domain';
import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis } from 'rate-limiter-flexible';

/** Far above any configured limit: the store only counts, the domain's RateLimiter decides. */
const COUNT_ONLY = Number.MAX_SAFE_INTEGER;

/**
 * The rate-limit counters on Redis through rate-limiter-flexible (docs/decisions/0160): one atomic
 * INCRBY with its expiry per hit, so counters shared by every instance never contend on a database row
 * (the Galera deadlocks of issue 31). Each window has its own key, `<prefix>rl:<windowStart>:<key>`,
 * expiring two windows after its first hit, so nothing but Redis itself ever has to purge.
 *
 * While Redis is away, each hit is counted by an in-process insurance counter instead (the library's
 * `insuranceLimiter`): requests go on, limited per instance, rather than failing with Redis.
 */
export class RedisRateLimitStore implements RateLimitStore {
  private readonly windows = new Map<number, RateLimiterRedis>();

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  async hit(key: string, windowStart: number): Promise<number> {
    const result = await this.limiter(windowStart).penalty(key, 1);
    return result.consumedPoints;
  }

  async purge(before: number): Promise<void> {
    const pattern = `${this.prefix}rl:*`;
    let cursor = '0';
    do {
      const [next, keys] = await this.redis.scan(cursor, 'MATCH', pattern, 'COUNT', 500);
      cursor = next;
      const ended = keys.filter((k) => Number(k.slice(this.prefix.length + 3).split(':', 1)[0]) < before);
      if (ended.length) await this.redis.unlink(...ended);
    } while (cursor !== '0');
    for (const start of this.windows.keys()) if (start < before) this.windows.delete(start);
  }

  private limiter(windowStart: number): RateLimiterRedis {
    let limiter = this.windows.get(windowStart);
    if (!limiter) {
      const options = { points: COUNT_ONLY, duration: 2 * RATE_LIMIT_WINDOW_SECONDS, keyPrefix: `${this.prefix}rl:${windowStart}` };
      limiter = new RateLimiterRedis({
        ...options,
        storeClient: this.redis,
        rejectIfRedisNotReady: true,
        insuranceLimiter: new RateLimiterMemory(options),
      });
      // Only the current window and the one just ended are ever asked for.
      for (const start of this.windows.keys()) if (start < windowStart - RATE_LIMIT_WINDOW_SECONDS) this.windows.delete(start);
      this.windows.set(windowStart, limiter);
    }
    return limiter;
  }
}
