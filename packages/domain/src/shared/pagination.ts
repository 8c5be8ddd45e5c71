export const DEFAULT_PER_PAGE = 20;
export const MAX_PER_PAGE = 100;

export interface PageRequest {
  page: number;
  perPage: number;
}

export interface PageMeta {
  current_page: number;
  per_page: number;
  total: number;
  total_pages: number;
}

/** A page of a list whose total is not counted: its items and whether another page follows. */
export interface ListPage<T> {
  items: T[];
  page: number;
  per_page: number;
  has_more: boolean;
}

/** The page of `rows`, read with one row more than the page holds (`perPage + 1`, as every list): that row only says more follow. */
export function listPage<T>(rows: T[], req: PageRequest): ListPage<T> {
  return { items: rows.slice(0, req.perPage), page: req.page, per_page: req.perPage, has_more: rows.length > req.perPage };
}

export function pageRequest(page?: number, perPage?: number): PageRequest {
  const p = page && page > 0 ? Math.floor(page) : 1;
  const pp = perPage && perPage > 0 ? Math.min(Math.floor(perPage), MAX_PER_PAGE) : DEFAULT_PER_PAGE;
  return { page: p, perPage: pp };
}

export function offsetOf(req: PageRequest): number {
  return (req.page - 1) * req.perPage;
}

export function pageMeta(req: PageRequest, total: number): PageMeta {
  return {
    current_page: req.page,
    per_page: req.perPage,
    total,
    total_pages: Math.ceil(total / req.perPage),
  };
}
