import type { Kysely, Selectable } from 'kysely';
import type { Database } from './database.js';

/** Rows per query when streaming a user's data: an export holds one batch in memory at a time. */
export const BATCH = 500;

/** Reads one key-ordered batch after `after`; the stream stops at a short batch. */
export async function* keyset<R>(page: (after: number) => Promise<R[]>, key: (row: R) => number): AsyncGenerator<R> {
  let after = 0;
  for (;;) {
    const rows = await page(after);
    for (const row of rows) yield row;
    if (rows.length < BATCH) return;
    after = key(rows[rows.length - 1]);
  }
}

type Row<T extends keyof Database> = Selectable<Database[T]>;
type Column<T extends keyof Database> = keyof Row<T> & string;

/** `keyset` pages on numbers, so only a numeric column can be the key. */
type NumberColumn<T extends keyof Database> = { [K in Column<T>]: Row<T>[K] extends number ? K : never }[Column<T>];

/** The key defaults to `id`: a table without a numeric `id` must name its key, so the options become required. */
type OwnedRowsOptions<T extends keyof Database> =
  'id' extends NumberColumn<T>
    ? [options?: { key?: NumberColumn<T>; present?: Column<T> }]
    : [options: { key: NumberColumn<T>; present?: Column<T> }];

/**
 * The rows of `table` whose `owner` column is the user, in key order, for the account-data parts:
 * most of their sections are this one query, written here once so each caller names only what differs.
 * `present` keeps only the rows where that column is not null (media listings).
 */
export function ownedRows<T extends keyof Database, C extends Column<T>>(
  db: Kysely<Database>,
  table: T,
  owner: Column<T>,
  userId: number,
  columns: readonly C[],
  ...options: OwnedRowsOptions<T>
): AsyncGenerator<Pick<Row<T>, C>>;
export function ownedRows<T extends keyof Database>(
  db: Kysely<Database>,
  table: T,
  owner: Column<T>,
  userId: number,
  columns: 'all',
  ...options: OwnedRowsOptions<T>
): AsyncGenerator<Row<T>>;
export function ownedRows(
  db: Kysely<Database>,
  table: string,
  owner: string,
  userId: number,
  columns: readonly string[] | 'all',
  options: { key?: string; present?: string } = {},
): AsyncGenerator<Record<string, unknown>> {
  const key = options.key ?? 'id';
  // The next batch starts after the last row's key: without it in the rows, the stream would stop after one batch.
  if (columns !== 'all' && !columns.includes(key)) throw new Error(`ownedRows(${table}): the columns must include the key ${key}`);
  // Kysely cannot type a query over a table named by a type parameter: the overloads above carry the types.
  const untyped = db as unknown as Kysely<any>;
  return keyset(
    (after) => {
      const from = untyped.selectFrom(table);
      let query = (columns === 'all' ? from.selectAll() : from.select(columns)).where(owner, '=', userId);
      if (options.present) query = query.where(options.present, 'is not', null);
      return query.where(key, '>', after).orderBy(key).limit(BATCH).execute();
    },
    (r) => r[key],
  );
}

/**
 * The user's rows of a table that names places (a membership, a seat on a team, a follow), each with
 * fields of its place, in key order: the membership sections of the account-data parts. `select`
 * names the row's columns as `r.…` and the place's as `p.…`, in the order the export writes them.
 */
export function ownedRowsWithPlace(
  db: Kysely<Database>,
  rows: { table: keyof Database & string; key: string; placeId: string; placeTable: keyof Database & string },
  select: readonly string[],
  userId: number,
): AsyncGenerator<Record<string, unknown>> {
  if (!select.includes(`r.${rows.key}`)) throw new Error(`ownedRowsWithPlace(${rows.table}): the columns must include the key ${rows.key}`);
  // Kysely cannot type a query over tables named at run time, as in ownedRows.
  const untyped = db as unknown as Kysely<any>;
  return keyset(
    (after) =>
      untyped
        .selectFrom(`${rows.table} as r`)
        .innerJoin(`${rows.placeTable} as p`, 'p.id', `r.${rows.placeId}`)
        .select(select as string[])
        .where('r.user_id', '=', userId)
        .where(`r.${rows.key}`, '>', after)
        .orderBy(`r.${rows.key}`)
        .limit(BATCH)
        .execute(),
    (r) => r[rows.key],
  );
}

export async function* mapped<A, B>(rows: AsyncIterable<A>, f: (a: A) => B): AsyncGenerator<B> {
  for await (const row of rows) yield f(row);
}

/** Ids per statement when rewriting many rows: keeps every `in (…)` list short. */
const CHUNK = 500;

export function chunks<T>(items: T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += CHUNK) out.push(items.slice(i, i + CHUNK));
  return out;
}
