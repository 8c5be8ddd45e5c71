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
    counter.executed += 1;
    return execute(query).catch(failed);
  });
}
