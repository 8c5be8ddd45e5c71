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
