import type BetterSqlite3 from 'better-sqlite3';
import { type CompiledQuery, type DatabaseConnection, type Dialect, type Driver, type QueryResult, SqliteDialect } from 'kysely';

/**
 * A first-in-first-out lock that hands over after a turn of the event loop. SQLite has one connection;
 * Kysely's own lock wakes every waiter at once and lets a newcomer take the connection before them, and
 * it hands over in a microtask, so a queue of waiting queries keeps the event loop from accepting
 * requests or writing answers until it is empty. Here the lock stays taken during the hand-over (no
 * one overtakes), and `setImmediate` lets pending I/O run between two holders (docs/decisions/0072).
 */
export class FairMutex {
  private locked = false;
  private readonly waiters: (() => void)[] = [];

  lock(): Promise<void> {
    if (!this.locked) {
      this.locked = true;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  unlock(): void {
    const next = this.waiters.shift();
    if (next) setImmediate(next);
    else this.locked = false;
  }

  get waiting(): number {
    return this.waiters.length;
  }

  get held(): boolean {
    return this.locked;
  }
}

/** Prepared statements kept per SQL text: preparing is most of a small query's cost on SQLite. */
const STATEMENT_CACHE = 500;

/** The connection: Kysely's SqliteConnection, with prepared statements reused. */
class CachingSqliteConnection implements DatabaseConnection {
  private readonly statements = new Map<string, BetterSqlite3.Statement>();

  constructor(private readonly db: BetterSqlite3.Database) {}

  private prepare(text: string): BetterSqlite3.Statement {
    let stmt = this.statements.get(text);
    if (stmt) {
      // Most recently used last: the first key is the one to evict.
      this.statements.delete(text);
    } else {
      stmt = this.db.prepare(text);
      if (this.statements.size >= STATEMENT_CACHE) this.statements.delete(this.statements.keys().next().value as string);
    }
    this.statements.set(text, stmt);
    return stmt;
  }

  async executeQuery<R>(compiledQuery: CompiledQuery): Promise<QueryResult<R>> {
    const stmt = this.prepare(compiledQuery.sql);
    const parameters = compiledQuery.parameters as unknown[];
    if (stmt.reader) return { rows: stmt.all(parameters) as R[] };
    const { changes, lastInsertRowid } = stmt.run(parameters);
    return { numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid), rows: [] };
  }

  async *streamQuery<R>(compiledQuery: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    // Not from the cache: a statement being iterated cannot run again until the iteration ends.
    const stmt = this.db.prepare(compiledQuery.sql);
    if (!stmt.reader) throw new Error('Sqlite driver only supports streaming of select queries');
    for (const row of stmt.iterate(compiledQuery.parameters as unknown[])) yield { rows: [row as R] };
  }
}

/**
 * Kysely's SQLite dialect with the fair hand-over above and a statement cache. Transactions, savepoints
 * and closing are Kysely's own (its driver's lock is then always free: this one is taken first).
 */
export function fairSqliteDialect(database: BetterSqlite3.Database): Dialect & { use(): { inUse: number; free: number; queued: number } } {
  const base = new SqliteDialect({ database });
  let mutex: FairMutex | null = null;
  return {
    /** The one connection as a pool of one: in use while held, and the queries waiting their turn. */
    use() {
      const inUse = mutex?.held ? 1 : 0;
      return { inUse, free: 1 - inUse, queued: mutex?.waiting ?? 0 };
    },
    createAdapter: () => base.createAdapter(),
    createIntrospector: (db) => base.createIntrospector(db),
    createQueryCompiler: () => base.createQueryCompiler(),
    createDriver: (): Driver => {
      const inner = base.createDriver();
      const lock = new FairMutex();
      mutex = lock;
      const connection = new CachingSqliteConnection(database);
      return {
        init: () => inner.init(),
        async acquireConnection() {
          await lock.lock();
          // Kysely's driver keeps its transaction bookkeeping on its own connection object: take it
          // too (free, since ours is held), and answer with the caching connection.
          await inner.acquireConnection();
          return connection;
        },
        beginTransaction: (c, settings) => inner.beginTransaction(c, settings),
        commitTransaction: (c) => inner.commitTransaction(c),
        rollbackTransaction: (c) => inner.rollbackTransaction(c),
        savepoint: (c, name, compile) => inner.savepoint!(c, name, compile),
        rollbackToSavepoint: (c, name, compile) => inner.rollbackToSavepoint!(c, name, compile),
        releaseSavepoint: (c, name, compile) => inner.releaseSavepoint!(c, name, compile),
        async releaseConnection(c) {
          await inner.releaseConnection(c);
          lock.unlock();
        },
        destroy: () => inner.destroy(),
      };
    },
  };
}
