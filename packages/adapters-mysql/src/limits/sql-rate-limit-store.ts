import type { RateLimitStore } from '@plaza/domain';
import type { Kysely } from 'kysely';
import { incrementCounter, type SqlDialect } from '../dialect.js';
import type { Database } from '../database.js';

/** Shared counters so that several instances behind a load balancer enforce one limit. */
export class SqlRateLimitStore implements RateLimitStore {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: SqlDialect,
  ) {}

  hit(key: string, windowStart: number) {
    return incrementCounter(this.db, this.dialect, 'rate_limit_counters', { bucket: key, window_start: windowStart }, 'hits');
  }

  async purge(before: number) {
    await this.db.deleteFrom('rate_limit_counters').where('window_start', '<', before).execute();
  }
}
