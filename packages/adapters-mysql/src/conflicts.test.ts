import { CompiledQuery, type DatabaseConnection, type Dialect, type Driver, type QueryResult } from 'kysely';
import { describe, expect, it } from 'vitest';
import { isRetryableConflict, MAX_CONFLICT_ATTEMPTS, retryingConflicts } from './conflicts.js';

/** A driver whose one connection fails the statements `fail` chooses (the Nth run of each SQL text). */
function scriptedDialect(fail: (sql: string, run: number) => unknown): { dialect: Dialect; runs: string[] } {
  const runs: string[] = [];
  const counts = new Map<string, number>();
  const connection: DatabaseConnection = {
    async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
      runs.push(query.sql);
      const run = (counts.get(query.sql) ?? 0) + 1;
      counts.set(query.sql, run);
      const error = fail(query.sql, run);
      if (error) throw error;
      return { rows: [] };
    },
    streamQuery: () => {
      throw new Error('not used');
    },
  };
  const driver = {
    init: async () => {},
    acquireConnection: async () => connection,
    beginTransaction: async () => {},
    commitTransaction: async () => {},
    rollbackTransaction: async () => {},
    releaseConnection: async () => {},
    destroy: async () => {},
  } satisfies Driver;
  const dialect = { createDriver: () => driver } as unknown as Dialect;
  return { dialect, runs };
}

const deadlock = Object.assign(new Error('Deadlock found when trying to get lock; try restarting transaction'), {
  code: 'ER_LOCK_DEADLOCK',
  errno: 1213,
});
const lockWait = Object.assign(new Error('Lock wait timeout exceeded'), { code: 'ER_LOCK_WAIT_TIMEOUT', errno: 1205 });

describe('retryingConflicts', () => {
  it('knows deadlocks (Galera certification failures among them) and lock wait timeouts, nothing else', () => {
    expect(isRetryableConflict(deadlock)).toBe(true);
    expect(isRetryableConflict(lockWait)).toBe(true);
    expect(isRetryableConflict({ errno: 1062, code: 'ER_DUP_ENTRY' })).toBe(false);
    expect(isRetryableConflict(null)).toBe(false);
  });

  it('runs a statement outside a transaction again when it loses a conflict, until it goes through', async () => {
    const { dialect, runs } = scriptedDialect((sql, run) =>
      sql.startsWith('insert') && run <= 2 ? (run === 1 ? deadlock : lockWait) : null,
    );
    const connection = await retryingConflicts(dialect).createDriver().acquireConnection();
    await connection.executeQuery(CompiledQuery.raw('insert into rate_limit_counters values (1)'));
    expect(runs).toEqual([
      'insert into rate_limit_counters values (1)',
      'insert into rate_limit_counters values (1)',
      'insert into rate_limit_counters values (1)',
    ]);
  });

  it('gives up after the last attempt, with the server’s error', async () => {
    const { dialect, runs } = scriptedDialect(() => deadlock);
    const connection = await retryingConflicts(dialect).createDriver().acquireConnection();
    await expect(connection.executeQuery(CompiledQuery.raw('update t set x = 1'))).rejects.toBe(deadlock);
    expect(runs).toHaveLength(MAX_CONFLICT_ATTEMPTS);
  });

  it('leaves a statement inside a transaction to the transaction’s owner, and retries again after its rollback', async () => {
    const { dialect, runs } = scriptedDialect((sql, run) => (sql.startsWith('update') && run === 1 ? deadlock : null));
    const connection = await retryingConflicts(dialect).createDriver().acquireConnection();
    await connection.executeQuery(CompiledQuery.raw('begin'));
    await expect(connection.executeQuery(CompiledQuery.raw('update t set x = 1'))).rejects.toBe(deadlock);
    await connection.executeQuery(CompiledQuery.raw('rollback'));
    expect(runs).toEqual(['begin', 'update t set x = 1', 'rollback']);
    const { dialect: again, runs: againRuns } = scriptedDialect((sql, run) => (sql.startsWith('update') && run === 1 ? deadlock : null));
    const outside = await retryingConflicts(again).createDriver().acquireConnection();
    await outside.executeQuery(CompiledQuery.raw('begin'));
    await outside.executeQuery(CompiledQuery.raw('commit'));
    await outside.executeQuery(CompiledQuery.raw('update t set x = 2'));
    expect(againRuns.filter((s) => s === 'update t set x = 2')).toHaveLength(2);
  });

  it('does not run a failure that is not a conflict again', async () => {
    const duplicate = Object.assign(new Error('Duplicate entry'), { code: 'ER_DUP_ENTRY', errno: 1062 });
    const { dialect, runs } = scriptedDialect(() => duplicate);
    const connection = await retryingConflicts(dialect).createDriver().acquireConnection();
    await expect(connection.executeQuery(CompiledQuery.raw('insert into t values (1)'))).rejects.toBe(duplicate);
    expect(runs).toHaveLength(1);
  });
});
