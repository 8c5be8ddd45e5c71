import { sql, type Kysely, type RawBuilder } from 'kysely';

/**
 * Everything that differs between MySQL/MariaDB and SQLite lives here; repositories otherwise use
 * dialect-neutral Kysely.
 */
export type SqlDialect = 'mysql' | 'sqlite';

/** Duplicate-key failures, whichever driver raised them. */
export function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; errno?: number };
  return e?.code === 'ER_DUP_ENTRY' || e?.errno === 1062 || e?.code === 'SQLITE_CONSTRAINT_UNIQUE' || e?.code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

/**
 * MySQL/MariaDB chose this transaction as a deadlock victim and rolled it back whole: running it again
 * is safe. (SQLite has one writer per database file; it reports no deadlocks.)
 */
export function isDeadlock(error: unknown): boolean {
  const e = error as { code?: string; errno?: number };
  return e?.code === 'ER_LOCK_DEADLOCK' || e?.errno === 1213;
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
