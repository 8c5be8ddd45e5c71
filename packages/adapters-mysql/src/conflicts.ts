import type { Dialect } from 'kysely';
import { wrappingStatements } from './dialect.js';

/**
 * Conflicts the server resolved by undoing our work, so that doing it again is safe: the one place
 * that says which failures are retried, and how (docs/decisions/0009, 0141).
 * - 1213 `ER_LOCK_DEADLOCK`: InnoDB chose the transaction as a deadlock victim, or Galera's
 *   certification refused it at commit because another node committed a conflicting write first.
 *   Either way the whole transaction was rolled back.
 * - 1205 `ER_LOCK_WAIT_TIMEOUT`: a lock waited for longer than `innodb_lock_wait_timeout`; the
 *   statement was undone (and the caller then rolls the transaction back).
 * SQLite has one writer per database file and reports neither.
 */
export function isRetryableConflict(error: unknown): boolean {
  const e = error as { code?: string; errno?: number } | null;
  return e?.code === 'ER_LOCK_DEADLOCK' || e?.errno === 1213 || e?.code === 'ER_LOCK_WAIT_TIMEOUT' || e?.errno === 1205;
}

/**
 * Attempts in all, for an outermost transaction (unit-of-work.ts) as for a statement outside any
 * transaction. Ten: on Galera, 20 comments on one post split across two nodes each commit aborts the
 * other node's holder of the post's row, and six attempts were measured not always to be enough.
 */
export const MAX_CONFLICT_ATTEMPTS = 10;

/**
 * Before running a conflict's loser again: a short random wait that grows with the attempt, so that
 * the writers that collided do not start again in lockstep and collide the same way (20 follows racing
 * 10 posts on one account did, three times running; on Galera, 20 follows split across two nodes).
 */
export function conflictBackoff(attempt: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.random() * 20 * attempt));
}

/**
 * Every statement that runs outside a transaction (autocommit: the rate-limit counter's upsert, a
 * single conditional update) and loses a conflict runs again, up to MAX_CONFLICT_ATTEMPTS in all: the
 * server undid it whole. Statements inside a transaction are left to the transaction's owner
 * (AmbientTransactions runs the whole unit again), since the server rolled back more than the
 * statement. A connection is inside a transaction from Kysely's `begin` to its `commit` or `rollback`.
 */
export function retryingConflicts(dialect: Dialect): Dialect {
  return wrappingStatements(dialect, (execute) => {
    let inTransaction = false;
    return async (query) => {
      const command = query.sql.length <= 10 ? query.sql.trim().toLowerCase() : '';
      if (command === 'begin' || command === 'start transaction') {
        const result = await execute(query);
        inTransaction = true;
        return result;
      }
      if (command === 'commit' || command === 'rollback') {
        inTransaction = false;
        return execute(query);
      }
      for (let attempt = 1; ; attempt++) {
        try {
          return await execute(query);
        } catch (error) {
          if (inTransaction || !isRetryableConflict(error) || attempt >= MAX_CONFLICT_ATTEMPTS) throw error;
          await conflictBackoff(attempt);
        }
      }
    };
  });
}
