import { Conflict, NotFound } from '@plaza/domain';
import {
  type CompiledQuery,
  sql,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  type QueryResult,
  type RawBuilder,
} from 'kysely';

/**
 * Everything that differs between MySQL/MariaDB and SQLite lives here; repositories otherwise use
 * dialect-neutral Kysely.
 */
export type SqlDialect = 'mysql' | 'sqlite';

/**
 * A statement refused because it would duplicate a unique key, as the domain's `Conflict` (409): two
 * requests racing to create the same thing is a conflict between clients, never a server failure.
 * `key` is what the database named: the index on MySQL (`users_email_unique`, `PRIMARY`), the columns
 * on SQLite (`users.email`), for a repository that tells the client which refusal it is.
 */
export class DuplicateKey extends Conflict {
  constructor(readonly key: string) {
    super('This already exists', 'already_exists');
  }
}

/**
 * A row written with a reference to a row that does not exist, as `NotFound` (404): what the request
 * names was deleted between the use case's check and its write (a post, a message, a user).
 */
export class MissingReference extends NotFound {
  constructor() {
    super('What this refers to does not exist any more', 'reference_not_found');
  }
}

/** A row deleted while other rows still refer to it (no cascade), as `Conflict`. */
export class StillReferenced extends Conflict {
  constructor() {
    super('This is still referred to and cannot be removed', 'still_referenced');
  }
}

/** Duplicate-key failures, whichever driver raised them (or already translated, see `withDomainConstraintErrors`). */
export function isUniqueViolation(error: unknown): boolean {
  if (error instanceof DuplicateKey) return true;
  const e = error as { code?: string; errno?: number };
  return (
    e?.code === 'ER_DUP_ENTRY' || e?.errno === 1062 || e?.code === 'SQLITE_CONSTRAINT_UNIQUE' || e?.code === 'SQLITE_CONSTRAINT_PRIMARYKEY'
  );
}

/** The driver's constraint failure as the domain error it means, or the error as it came. */
function asDomainError(error: unknown, statement: string): unknown {
  const e = error as { code?: string; errno?: number; message?: string } | null;
  if (!e || error instanceof DuplicateKey) return error;
  if (isUniqueViolation(error)) {
    // MySQL: "Duplicate entry 'x' for key 'users_email_unique'"; SQLite: "UNIQUE constraint failed: users.email".
    const message = String(e.message ?? '');
    return new DuplicateKey(/for key '([^']+)'/.exec(message)?.[1] ?? /constraint failed: (.+)$/.exec(message)?.[1] ?? '');
  }
  // MySQL tells a missing parent (1452, 1216) from a parent still referenced (1451, 1217); SQLite
  // reports both alike, and only a delete can leave children behind.
  if (e.errno === 1452 || e.errno === 1216) return new MissingReference();
  if (e.errno === 1451 || e.errno === 1217) return new StillReferenced();
  if (e.code === 'SQLITE_CONSTRAINT_FOREIGNKEY') return /^\s*delete\b/i.test(statement) ? new StillReferenced() : new MissingReference();
  return error;
}

/**
 * Makes every statement run through `dialect` fail with a domain error where a constraint refused it:
 * `DuplicateKey` (409) for a unique key, `MissingReference` (404) or `StillReferenced` (409) for a
 * foreign key. One place, so that any write (today's repositories and the ones written later) that
 * loses a race with another request answers 4xx, never 500; repositories that know what a key means
 * catch these and say so (`username_taken`).
 */
export function withDomainConstraintErrors(dialect: Dialect): Dialect {
  // Async, so that a driver throwing synchronously (better-sqlite3) is caught as well.
  return wrappingStatements(dialect, (execute) => async (query) => {
    try {
      return await execute(query);
    } catch (error) {
      throw asDomainError(error, query.sql);
    }
  });
}

type ExecuteQuery = <R>(query: CompiledQuery) => Promise<QueryResult<R>>;

/**
 * `dialect` with every statement run through `wrap(execute)`: each connection's `executeQuery` is
 * replaced once, when the driver first hands the connection out (Kysely's own query logging patches
 * connections the same way). Drivers keep their state in private fields, so every other method runs
 * on the driver itself.
 */
export function wrappingStatements(
  dialect: Dialect,
  wrap: (execute: ExecuteQuery) => (query: CompiledQuery) => Promise<QueryResult<unknown>>,
): Dialect {
  return {
    createAdapter: () => dialect.createAdapter(),
    createIntrospector: (db) => dialect.createIntrospector(db),
    createQueryCompiler: () => dialect.createQueryCompiler(),
    createDriver: () => {
      const driver = dialect.createDriver();
      const patched = new WeakSet<DatabaseConnection>();
      const acquireConnection = async () => {
        const connection = await driver.acquireConnection();
        if (!patched.has(connection)) {
          connection.executeQuery = wrap(connection.executeQuery.bind(connection)) as ExecuteQuery;
          patched.add(connection);
        }
        return connection;
      };
      return new Proxy(driver, {
        get(target, prop) {
          if (prop === 'acquireConnection') return acquireConnection;
          const value: unknown = Reflect.get(target, prop, target);
          return typeof value === 'function' ? value.bind(target) : value;
        },
      }) satisfies Driver;
    },
  };
}

/** MariaDB and SQLite report insert ids as bigint; ids fit comfortably in a JS number. */
export function insertedId(result: { insertId?: bigint | number | undefined }): number {
  if (result.insertId === undefined) throw new Error('the insert returned no id');
  return Number(result.insertId);
}

/** Case-insensitive text comparison for columns declared with a case-insensitive collation. */
export function caseInsensitiveCollation(dialect: SqlDialect): RawBuilder<unknown> {
  return dialect === 'sqlite' ? sql`collate nocase` : sql`collate utf8mb4_unicode_ci`;
}

/**
 * Adds one to a counter row and returns the new value in a single atomic statement, so concurrent
 * increments never read the same value.
 */
export async function incrementCounter(
  db: Kysely<any>,
  dialect: SqlDialect,
  table: string,
  key: Record<string, string | number>,
  column: string,
): Promise<number> {
  const cols = Object.keys(key);
  const values = Object.values(key);
  const colList = sql.join(cols.map((c) => sql.ref(c)));
  const valList = sql.join(values.map((v) => sql`${v}`));
  if (dialect === 'mysql') {
    // LAST_INSERT_ID(expr) makes the driver report the counter's new value as the insert id.
    const result = await sql`insert into ${sql.table(table)} (${colList}, ${sql.ref(column)})
      values (${valList}, last_insert_id(1))
      on duplicate key update ${sql.ref(column)} = last_insert_id(${sql.ref(column)} + 1)`.execute(db);
    return Number(result.insertId);
  }
  const result = await sql<Record<string, number>>`insert into ${sql.table(table)} (${colList}, ${sql.ref(column)})
    values (${valList}, 1)
    on conflict (${colList}) do update set ${sql.ref(column)} = ${sql.ref(column)} + 1
    returning ${sql.ref(column)}`.execute(db);
  return Number(result.rows[0][column]);
}

/**
 * Takes the write lock of one row for the rest of the transaction before touching rows that reference
 * it: on MySQL an insert's foreign-key check holds a shared lock on the parent, so two transactions
 * inserting a child and then updating the parent's counter would deadlock. SQLite serializes writers.
 */
export async function lockRowForUpdate(db: Kysely<any>, dialect: SqlDialect, table: string, id: number): Promise<void> {
  if (dialect !== 'mysql') return;
  await sql`select id from ${sql.table(table)} where id = ${id} for update`.execute(db);
}

/**
 * Takes the write locks of several rows in id order, in one statement: two transactions locking
 * overlapping sets this way wait for each other instead of deadlocking. A no-op on SQLite, where a
 * transaction already excludes every other writer of the file.
 */
export async function lockRowsForUpdate(db: Kysely<any>, dialect: SqlDialect, table: string, ids: number[]): Promise<void> {
  if (dialect !== 'mysql' || ids.length === 0) return;
  const sorted = [...new Set(ids)].sort((a, b) => a - b);
  await sql`select id from ${sql.table(table)} where id in (${sql.join(sorted)}) order by id for update`.execute(db);
}

/**
 * Inserts one row unless it would duplicate the table's natural key; true when this call inserted it.
 * Only a duplicate is taken as "already there": INSERT IGNORE would also turn foreign-key and
 * truncation errors into warnings on MySQL. Not `on duplicate key update col = col` either: with the
 * FOUND_ROWS flag mysql2 sets, that no-op reports one affected row, as an insert does, so the caller
 * could not tell. Use it on tables whose only unique key is the natural one (a primary key, or an
 * auto-increment id plus one unique key). Inside a transaction, a refused insert undoes that
 * statement alone, on both databases.
 */
export async function insertIfAbsent(db: Kysely<any>, table: string, row: Record<string, unknown>): Promise<boolean> {
  try {
    await db.insertInto(table).values(row).execute();
    return true;
  } catch (error) {
    if (isUniqueViolation(error)) return false;
    throw error;
  }
}

/**
 * Inserts rows, or updates `update` columns of those that already exist, in one statement. Taking the
 * row locks directly (instead of insert-ignore then update, which upgrades shared locks to exclusive
 * ones) is what keeps concurrent writers from deadlocking; pass rows in primary-key order.
 */
export async function insertOrUpdate(
  db: Kysely<any>,
  dialect: SqlDialect,
  table: string,
  rows: Record<string, unknown>[],
  keyColumns: string[],
  update: Record<string, unknown>,
): Promise<void> {
  const insert = db.insertInto(table).values(rows);
  if (dialect === 'mysql') await insert.onDuplicateKeyUpdate(update).execute();
  else await insert.onConflict((oc) => oc.columns(keyColumns as never[]).doUpdateSet(update)).execute();
}
