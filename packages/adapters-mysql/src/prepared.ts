import type { CompiledQuery, Compilable, Kysely, QueryResult } from 'kysely';

/**
 * A query built and compiled once, then run with new values: for the few queries every request runs
 * (the token lookup, the feed's page, a new post's two inserts), where Kysely's building and compiling cost more than the
 * database does (docs/decisions/0075). `build` receives one placeholder per parameter and must use
 * each as a value (`where('x', '=', p0)`, `limit(p1)`), never to choose the query's shape: the SQL is
 * fixed at the first call. The placeholders are found in the compiled parameters and replaced by the
 * values of each run; the query runs on `db` at that moment, so inside a unit of work it joins it.
 */
/**
 * The SQL of every query built by `prepared()`: a fixed, small set, which the MySQL pool runs as
 * server-side prepared statements (server-prepared-pool.ts).
 */
export const PREPARED_STATEMENTS = new Set<string>();

export function prepared<const Args extends unknown[], R>(
  build: (...placeholders: Args) => Compilable<R>,
): (db: Pick<Kysely<any>, 'executeQuery'>, ...args: Args) => Promise<R[]> {
  const run = preparedStatement(build);
  return async (db, ...args) => (await run(db, ...args)).rows;
}

/** `prepared`, answering the whole result: what a write needs (its insert id). */
export function preparedStatement<const Args extends unknown[], R>(
  build: (...placeholders: Args) => Compilable<R>,
): (db: Pick<Kysely<any>, 'executeQuery'>, ...args: Args) => Promise<QueryResult<R>> {
  let compiled: CompiledQuery<R> | undefined;
  let slots: number[][] = [];
  return async (db, ...args) => {
    if (!compiled) {
      const placeholders = args.map((_, i) => `\u0000plaza-prepared-${i}\u0000`);
      compiled = build(...(placeholders as Args)).compile();
      slots = placeholders.map((p) => compiled!.parameters.flatMap((value, index) => (value === p ? [index] : [])));
      const missing = slots.findIndex((s) => s.length === 0);
      if (missing >= 0) throw new Error(`prepared query: parameter ${missing} is not used as a value`);
      PREPARED_STATEMENTS.add(compiled.sql);
    }
    const parameters = [...compiled.parameters];
    slots.forEach((indexes, arg) => indexes.forEach((index) => (parameters[index] = args[arg])));
    return db.executeQuery<R>({ ...compiled, parameters });
  };
}
