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
