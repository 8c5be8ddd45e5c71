import { describe, expect, it } from 'vitest';
import { concatPages, type PagedSource } from './concat-pages.js';

const list =
  (rows: number[], reads: number[][] = []): PagedSource<number> =>
  async ({ page, perPage }) => {
    reads.push([page, perPage]);
    return { items: rows.slice((page - 1) * perPage, page * perPage), total: rows.length };
  };
const range = (from: number, n: number) => Array.from({ length: n }, (_, i) => from + i);

describe('concatPages', () => {
  it('pages through the lists one after the other, every item once', async () => {
    const a = range(0, 7);
    const b = range(100, 12);
    const all: number[] = [];
    for (let p = 1; p <= 5; p++) {
      const r = await concatPages([list(a), list(b)], { page: p, perPage: 5 });
      expect(r.total).toBe(19);
      all.push(...r.items);
    }
    expect(all).toEqual([...a, ...b]);
  });

  it('reads at most two pages of a list for a page, and only the totals of lists before the window', async () => {
    const reads: number[][] = [];
    const r = await concatPages([list(range(0, 3)), list(range(100, 40), reads)], { page: 2, perPage: 10 });
    expect(r.items).toEqual(range(107, 10));
    expect(reads).toEqual([
      [1, 10],
      [2, 10],
    ]);
  });

  it('is empty past the end, with the totals', async () => {
    expect(await concatPages([list([1]), list([])], { page: 3, perPage: 20 })).toEqual({ items: [], total: 1 });
  });
});
