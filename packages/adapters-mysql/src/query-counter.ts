import { AsyncLocalStorage } from 'node:async_hooks';
import type { Dialect } from 'kysely';
import { wrappingStatements } from './dialect.js';

export interface QueryCounter {
  executed: number;
  /** Statements that failed (constraint violations included), for monitoring. */
  failed: number;
}

/**
 * Counts every statement run through `dialect` in `counter`: one increment per statement, so that a
 * test can assert how many queries a request costs (test/e2e/query-count.test.ts) whatever its page
 * size, and one per failed statement, which /metrics shows.
 */
export function countingQueries(dialect: Dialect, counter: QueryCounter): Dialect {
  const failed = (error: unknown) => {
    counter.failed += 1;
    throw error;
  };
  return wrappingStatements(dialect, (execute) => (query) => {
    if (!housekeeping.getStore()) counter.executed += 1;
    return execute(query).catch(failed);
  });
}

const housekeeping = new AsyncLocalStorage<true>();

/**
 * Runs `work` as the process's own housekeeping, not a request's: its statements are not counted in
 * `executed` (failures still are). The session signal's check, once a second whichever request comes
 * (docs/decisions/0150), is one: a request's count stays what the request itself costs.
 */
export function asHousekeeping<T>(work: () => Promise<T>): Promise<T> {
  return housekeeping.run(true, work);
}
