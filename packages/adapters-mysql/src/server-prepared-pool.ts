import type { PoolConnection } from 'mysql2';
import type { ConnectionSource } from './node-pools.js';

/**
 * mysql2's pool as Kysely's MysqlDialect uses it, but running the statements in `statements` (the
 * few built once by `prepared()`: the token lookup, the feed's page, a new post's inserts) as
 * server-side prepared statements: the server parses each once per connection, and the binary rows
 * cost the client less to read. Measured on MariaDB 10.11: the feed's page query fell from about 400
 * to 260 µs of server CPU, the token lookup from 190 to 145 (docs/decisions/0075).
 *
 * Only those: every other statement is built per request (`in (…)` lists of any length), and
 * preparing each would fill the server's statement limit (`max_prepared_stmt_count`, shared by every
 * connection) with statements used once. mysql2 keeps each connection's prepared statements in its
 * own cache and prepares again after a reconnection.
 */
export function serverPreparedPool(pool: ConnectionSource, statements: ReadonlySet<string>) {
  const wrapped = new WeakMap<PoolConnection, PoolConnection>();
  const wrap = (connection: PoolConnection): PoolConnection => {
    let proxy = wrapped.get(connection);
    if (!proxy) {
      const query = ((sql: unknown, values: unknown, callback: unknown) =>
        typeof sql === 'string' && statements.has(sql)
          ? (connection.execute as (...args: unknown[]) => unknown)(sql, values, callback)
          : (connection.query as (...args: unknown[]) => unknown)(sql, values, callback)) as PoolConnection['query'];
      proxy = new Proxy(connection, {
        get: (target, prop) => {
          if (prop === 'query') return query;
          const value: unknown = Reflect.get(target, prop, target);
          return typeof value === 'function' ? value.bind(target) : value;
        },
      });
      wrapped.set(connection, proxy);
    }
    return proxy;
  };
  return {
    getConnection(callback: (error: NodeJS.ErrnoException | null, connection: PoolConnection) => void): void {
      pool.getConnection((error, connection) => callback(error, error ? connection : wrap(connection)));
    },
    end(callback: (error: NodeJS.ErrnoException | null) => void): void {
      pool.end(callback);
    },
  };
}
