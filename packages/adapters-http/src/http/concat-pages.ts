import type { PageRequest } from '@plaza/domain';

/** One paged list: a page of it and its total. */
export type PagedSource<T> = (page: PageRequest) => Promise<{ items: T[]; total: number }>;

/**
 * A page of several lists shown one after the other (friends.php's pending requests: the remote
 * ones, then the local ones). Each list is read through its own pages, at most two of them per
 * list (a window that starts between two of its pages), so no list is read item by item.
 */
export async function concatPages<T>(sources: PagedSource<T>[], page: PageRequest): Promise<{ items: T[]; total: number }> {
  const { perPage } = page;
  let skip = (page.page - 1) * perPage;
  const items: T[] = [];
  let total = 0;
  for (const source of sources) {
    const need = perPage - items.length;
    const first = Math.floor(skip / perPage) + 1;
    const a = await source({ page: first, perPage });
    total += a.total;
    let rows = a.items.slice(skip % perPage);
    if (rows.length < need && first * perPage < a.total) rows = rows.concat((await source({ page: first + 1, perPage })).items);
    items.push(...rows.slice(0, need));
    skip = Math.max(0, skip - a.total);
  }
  return { items, total };
}
