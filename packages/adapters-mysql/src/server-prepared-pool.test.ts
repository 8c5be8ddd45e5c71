import type { Pool, PoolConnection } from 'mysql2';
import { describe, expect, it } from 'vitest';
import { serverPreparedPool } from './server-prepared-pool.js';

/** A mysql2 pool that records which protocol each statement went through. */
function recordingPool() {
  const calls: string[] = [];
  const connection = {
    query: (sql: string, _values: unknown, cb: (e: null, r: unknown) => void) => (calls.push(`query ${sql}`), cb(null, [])),
    execute: (sql: string, _values: unknown, cb: (e: null, r: unknown) => void) => (calls.push(`execute ${sql}`), cb(null, [])),
    release: () => calls.push('release'),
    threadId: 7,
  };
  const pool = {
    getConnection: (cb: (e: null, c: PoolConnection) => void) => cb(null, connection as unknown as PoolConnection),
    end: (cb: (e: null) => void) => (calls.push('end'), cb(null)),
  };
  return { pool: pool as unknown as Pool, calls };
}

const take = (pool: ReturnType<typeof serverPreparedPool>) =>
  new Promise<PoolConnection>((resolve, reject) => pool.getConnection((e, c) => (e ? reject(e) : resolve(c))));

describe('serverPreparedPool', () => {
  it('runs the listed statements as prepared statements and every other one as a plain query', async () => {
    const { pool, calls } = recordingPool();
    const prepared = serverPreparedPool(pool, new Set(['select ? as fixed']));
    const connection = await take(prepared);
    connection.query('select ? as fixed', [1], () => {});
    connection.query('select ? as built_per_request', [1], () => {});
    connection.release();
    expect(calls).toEqual(['execute select ? as fixed', 'query select ? as built_per_request', 'release']);
    // The connection keeps its other properties, and the same connection comes back as the same object.
    expect(connection.threadId).toBe(7);
    expect(await take(prepared)).toBe(connection);
    await new Promise((resolve) => prepared.end(resolve));
    expect(calls.at(-1)).toBe('end');
  });
});
