import type { Timestamp } from '@plaza/domain';
import type { FederationKeyValues } from '@plaza/domain/federation';
import type { Redis } from 'ioredis';

/** Seconds since the epoch of a stored UTC timestamp (`YYYY-MM-DD HH:MM:SS`). */
function seconds(at: Timestamp): number {
  return Date.parse(`${at.replace(' ', 'T')}Z`) / 1000;
}

/**
 * Fedify's key-value store (the `FederationKeyValues` port) on Redis: each entry one string key,
 * `<prefix>kv:<key>`, holding `{"v": value, "e": expiry seconds or null}`; entries that expire are
 * also listed in the sorted set `<prefix>kv-expiring` by expiry, for `purgeExpired`. Expiry is decided
 * by the caller's clock (`now`), as in the database adapter, not by Redis' own.
 *
 * Everything in it is a cache Fedify can do without (remote documents and keys, activity ids seen), so
 * while Redis is away a read misses and a write is skipped instead of failing federation's requests.
 */
export class RedisFederationKeyValues implements FederationKeyValues {
  private readonly expiring: string;

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {
    this.expiring = `${prefix}kv-expiring`;
  }

  private key(key: string): string {
    return `${this.prefix}kv:${key}`;
  }

  async get(key: string, now: Timestamp): Promise<unknown | undefined> {
    let raw: string | null;
    try {
      raw = await this.redis.get(this.key(key));
    } catch {
      return undefined;
    }
    if (raw === null) return undefined;
    const entry = JSON.parse(raw) as { v: unknown; e: number | null };
    return entry.e !== null && entry.e <= seconds(now) ? undefined : entry.v;
  }

  async set(key: string, value: unknown, expiresAt: Timestamp | null): Promise<void> {
    const e = expiresAt === null ? null : seconds(expiresAt);
    const multi = this.redis.multi().set(this.key(key), JSON.stringify({ v: value, e }));
    if (e === null) multi.zrem(this.expiring, key);
    else multi.zadd(this.expiring, e, key);
    await multi.exec().catch(() => {});
  }

  async delete(key: string): Promise<void> {
    await this.redis.multi().del(this.key(key)).zrem(this.expiring, key).exec();
  }

  async purgeExpired(now: Timestamp): Promise<number> {
    let total = 0;
    for (;;) {
      const purged = await this.purgeSome(now);
      total += purged;
      if (purged < 1000) return total;
    }
  }

  /** Up to 1000 expired entries in one script: an entry set again with a later expiry meanwhile is kept. */
  private async purgeSome(now: Timestamp): Promise<number> {
    const purged = await this.redis.eval(
      `local keys = redis.call('zrangebyscore', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, 1000)
       for _, k in ipairs(keys) do
         redis.call('del', ARGV[2] .. k)
         redis.call('zrem', KEYS[1], k)
       end
       return #keys`,
      1,
      this.expiring,
      String(seconds(now)),
      `${this.prefix}kv:`,
    );
    return Number(purged);
  }
}
