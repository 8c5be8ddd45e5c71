import { offsetOf, type PageRequest } from '../../shared/pagination.js';

/** One page of an already ordered list, with the total: what every list port answers. */
export function pageOf<T>(all: T[], page: PageRequest): { items: T[]; total: number } {
  return { items: all.slice(offsetOf(page), offsetOf(page) + page.perPage).map((x) => ({ ...x })), total: all.length };
}

export const byIdDesc = <T extends { id: number }>(a: T, b: T) => b.id - a.id;
