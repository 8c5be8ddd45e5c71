import { sql, type Kysely } from 'kysely';

/**
 * What a refused request must leave as it was, read straight from the database. Rate-limit counters
 * change on every request by design, and the migration bookkeeping is not the application's.
 */
const IGNORED_TABLES = /^(rate_limit_counters|kysely_migration.*)$/;
/**
 * Columns a request touches before it is refused, on purpose: the session's last use, and an upload
 * marked referenced when its reference passed the check (docs/decisions/0114: marked, never cleared).
 */
const IGNORED_COLUMNS = new Set(['last_used_at', 'last_active_at', 'referenced_at']);

// The schema is migrated before a test starts and stays as it is: read it once per database, since
// introspection costs ~100 ms on MySQL and the fuzz pass compares counts around thousands of requests.
const tableLists = new WeakMap<Kysely<any>, Promise<string[]>>();

function tablesOf(db: Kysely<any>): Promise<string[]> {
  let tables = tableLists.get(db);
  if (!tables) {
    tables = db.introspection.getTables().then((all) =>
      all
        .map((t) => t.name)
        .filter((name) => !IGNORED_TABLES.test(name))
        .sort(),
    );
    tableLists.set(db, tables);
  }
  return tables;
}

/** The row count of every application table, in one round trip: `{ posts: 3, … }`. */
export async function rowCounts(db: Kysely<any>): Promise<Record<string, number>> {
  const tables = await tablesOf(db);
  const counts = sql.join(tables.map((t) => sql`(select count(*) from ${sql.table(t)}) as ${sql.ref(t)}`));
  const { rows } = await sql<Record<string, number | bigint>>`select ${counts}`.execute(db);
  return Object.fromEntries(Object.entries(rows[0]).map(([t, n]) => [t, Number(n)]));
}

/** Every row of every application table, for comparing the state before and after a request. */
export async function contents(db: Kysely<any>): Promise<string> {
  const out: Record<string, unknown[]> = {};
  for (const table of await tablesOf(db)) {
    const rows = await db.selectFrom(table).selectAll().execute();
    out[table] = rows
      .map((r) =>
        JSON.stringify(
          Object.entries(r).filter(([k]) => !IGNORED_COLUMNS.has(k)),
          (_, v) => (typeof v === 'bigint' ? Number(v) : v instanceof Date ? v.toISOString() : v),
        ),
      )
      .sort();
  }
  return JSON.stringify(out);
}
