import type { Dialect } from 'kysely';
import { wrappingStatements } from './dialect.js';

export interface QueryCounter {
  executed: number;
}

/**
 * Counts every statement run through `dialect` in `counter`: one increment per statement, so that a
 * test can assert how many queries a request costs (test/e2e/query-count.test.ts) whatever its page
 * size.
 */
export function countingQueries(dialect: Dialect, counter: QueryCounter): Dialect {
  return wrappingStatements(dialect, (execute) => (query) => {
    counter.executed += 1;
    return execute(query);
  });
}
