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
