import { offsetOf, type PageRequest } from '@plaza/domain';
import { type SelectQueryBuilder, sql } from 'kysely';

/**
 * One page of a filtered list and the length of the whole list: the filter is written once (`base`),
 * the page's columns and order once (`select`), and both reads go out together. Every paged list with a
 * total (moderation logs, reports, warnings, lives, events, albums…) reads through here.
 */
export async function pagedWithTotal<DB, TB extends keyof DB, O>(
  base: SelectQueryBuilder<DB, TB, object>,
  page: PageRequest,
  select: (filtered: SelectQueryBuilder<DB, TB, object>) => SelectQueryBuilder<DB, TB, O>,
): Promise<{ rows: O[]; total: number }> {
  const [rows, count] = await Promise.all([
    select(base).limit(page.perPage).offset(offsetOf(page)).execute(),
    base.select(sql<number | string>`count(*)`.as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number((count as { n: number | string }).n) };
}

/**
 * `pagedWithTotal` in one statement: each row of the page carries the list's length, counted by an
 * uncorrelated scalar subquery over the same filter, which MariaDB and SQLite evaluate once. For a
 * list read on every request (a message thread), where a second round trip costs more than the
 * count. Not a window count (`count(*) over ()`): that one materialises and sorts every row of the
 * filter before the limit, where this keeps the page's index range and the count's index-only scan
 * (docs/decisions/0255). A page past the end holds no row to carry the total: only then is it
 * counted apart (a first page with no row is an empty list).
 */
export async function pagedWithTotalInOne<DB, TB extends keyof DB, O>(
  base: SelectQueryBuilder<DB, TB, object>,
  page: PageRequest,
  select: (filtered: SelectQueryBuilder<DB, TB, object>) => SelectQueryBuilder<DB, TB, O>,
): Promise<{ rows: O[]; total: number }> {
  const count = base.select(sql<number | string>`count(*)`.as('n'));
  // Kysely cannot name a generic builder's extra column: the row type is stated.
  type WithTotal = O & { paged_list_total: number | string };
  const rows = (await select(base)
    .select(count.as('paged_list_total'))
    .limit(page.perPage)
    .offset(offsetOf(page))
    .execute()) as WithTotal[];
  if (rows.length > 0) {
    const total = Number(rows[0].paged_list_total);
    return { rows: rows.map(({ paged_list_total: _total, ...row }) => row as O), total };
  }
  if (offsetOf(page) === 0) return { rows: [], total: 0 };
  const counted = (await count.executeTakeFirstOrThrow()) as { n: number | string };
  return { rows: [], total: Number(counted.n) };
}
