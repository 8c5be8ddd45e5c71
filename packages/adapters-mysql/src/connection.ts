import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, MysqlDialect, sql } from 'kysely';
import type { Pool, PoolOptions } from 'mysql2';
import { retryingConflicts } from './conflicts.js';
import { type SqlDialect, withDomainConstraintErrors } from './dialect.js';
import { fairSqliteDialect } from './fair-sqlite.js';
import { countingQueries, type QueryCounter } from './query-counter.js';
import type { Database } from './database.js';
import { type DatabaseNode, NodePools } from './node-pools.js';
import { ReadRouting } from './read-routing.js';
import { routedDatabase } from './unit-of-work.js';
import { PREPARED_STATEMENTS } from './prepared.js';
import { serverPreparedPool } from './server-prepared-pool.js';

export type DatabaseConfig =
  | { kind: 'sqlite'; file: string }
  | {
      kind: 'mysql';
      host: string;
      port: number;
      /** A Unix socket of a server on this machine, used instead of host and port: cheaper per statement than loopback TCP. */
      socketPath?: string;
      /**
       * Every node to write to, in order of preference (`DB_HOST=a:3306,b:3306`; a Galera cluster):
       * the first that answers serves, the next when it is gone (node-pools.ts). `host` and `port`
       * are the first; without `nodes` they are the only one.
       */
      nodes?: DatabaseNode[];
      /** Read replicas (`DB_READ_HOSTS`): the plain reads of GET operations go to them (read-routing.ts). */
      readNodes?: DatabaseNode[];
      database: string;
      user: string;
      password: string;
      connectionLimit?: number;
    };

export interface DatabaseHandle {
  /**
   * What repositories and units of work use: every call runs in the current ambient transaction when
   * there is one (see unit-of-work.ts), on the root instance otherwise.
   */
  db: Kysely<Database>;
  /** The root instance, never inside a unit of work: for what must see the database as it is (the health ping). */
  root: Kysely<Database>;
  dialect: SqlDialect;
  /** Statements run so far (every query and transaction command): what the query-count test reads. */
  readonly queries: QueryCounter;
  /** Which reads may go to a replica; without replicas it routes nothing (HTTP operations still run through it). */
  reads: ReadRouting;
  /** Connections now, for monitoring: SQLite's one connection counts as a pool of one. */
  poolUse(): PoolUse;
  close(): Promise<void>;
}

export interface PoolUse {
  inUse: number;
  free: number;
  /** Requests for a connection waiting until one is free. */
  queued: number;
}

/** The figures of mysql2's pools, from their own (unexported) lists: the driver offers no public count. */
function mysqlPoolUse(pools: readonly Pool[]): PoolUse {
  const use = { inUse: 0, free: 0, queued: 0 };
  for (const pool of pools) {
    const lists = pool as unknown as {
      _allConnections?: { length: number };
      _freeConnections?: { length: number };
      _connectionQueue?: { length: number };
    };
    const all = lists._allConnections?.length ?? 0;
    const free = lists._freeConnections?.length ?? 0;
    use.inUse += all - free;
    use.free += free;
    use.queued += lists._connectionQueue?.length ?? 0;
  }
  return use;
}

export function openDatabase(config: DatabaseConfig): DatabaseHandle {
  if (config.kind === 'sqlite') {
    if (config.file !== ':memory:') mkdirSync(dirname(config.file), { recursive: true });
    const database = new SqliteDatabase(config.file);
    database.pragma('journal_mode = WAL');
    database.pragma('foreign_keys = ON');
    database.pragma('busy_timeout = 5000');
    // One connection, handed over first come first served with a turn of the event loop in between.
    const queries = { executed: 0, failed: 0 };
    const fair = fairSqliteDialect(database);
    const root = new Kysely<Database>({ dialect: withDomainConstraintErrors(countingQueries(fair, queries)) });
    return {
      db: routedDatabase(root),
      root,
      dialect: 'sqlite',
      queries,
      reads: new ReadRouting(false),
      poolUse: () => fair.use(),
      close: () => root.destroy(),
    };
  }
  const options: Omit<PoolOptions, 'host' | 'port'> = {
    socketPath: config.socketPath,
    user: config.user,
    password: config.password,
    database: config.database,
    connectionLimit: config.connectionLimit ?? 10,
    timezone: 'Z',
    // DATETIME values travel as 'YYYY-MM-DD HH:MM:SS' text, exactly as SQLite stores them.
    dateStrings: true,
    decimalNumbers: true,
    supportBigNumbers: true,
    charset: 'utf8mb4',
    connectTimeout: 5000,
  };
  const queries = { executed: 0, failed: 0 };
  // Kysely's MysqlDialect needs callback pools: with mysql2/promise its queries never settle.
  const kysely = (pools: NodePools) =>
    new Kysely<Database>({
      dialect: withDomainConstraintErrors(
        retryingConflicts(countingQueries(new MysqlDialect({ pool: serverPreparedPool(pools, PREPARED_STATEMENTS) }), queries)),
      ),
    });
  const nodes = config.nodes?.length ? config.nodes : [{ host: config.host, port: config.port }];
  const primary = new NodePools(nodes, options);
  const root = kysely(primary);
  const reads = new ReadRouting(Boolean(config.readNodes?.length));
  if (!config.readNodes?.length) {
    return {
      db: routedDatabase(root),
      root,
      dialect: 'mysql',
      queries,
      reads,
      poolUse: () => mysqlPoolUse(primary.all),
      close: () => root.destroy(),
    };
  }
  // The primary's nodes come last: with every replica gone, reads still find the data.
  const replicas = new NodePools([...config.readNodes, ...nodes], options);
  const replica = kysely(replicas);
  return {
    db: routedDatabase(root, { db: replica, routing: reads }),
    root,
    dialect: 'mysql',
    queries,
    reads,
    poolUse: () => mysqlPoolUse([...primary.all, ...replicas.all]),
    close: async () => {
      await Promise.all([root.destroy(), replica.destroy()]);
    },
  };
}

/** Parses `mysql://user:pass@host:port/database`. */
export function mysqlConfigFromUrl(url: string): Extract<DatabaseConfig, { kind: 'mysql' }> {
  const u = new URL(url);
  return {
    kind: 'mysql',
    host: u.hostname,
    port: Number(u.port || 3306),
    user: decodeURIComponent(u.username || 'root'),
    password: decodeURIComponent(u.password),
    database: u.pathname.replace(/^\//, ''),
  };
}

/** One trivial statement; throws the driver's error (its `code`: ECONNREFUSED, ER_ACCESS_DENIED_ERROR…) when the database does not answer. */
export async function probeDatabase(db: Kysely<Database>): Promise<void> {
  await sql`select 1`.execute(db);
}

export async function pingDatabase(db: Kysely<Database>): Promise<boolean> {
  try {
    await probeDatabase(db);
    return true;
  } catch {
    return false;
  }
}
