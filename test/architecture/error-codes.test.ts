import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { errorCodesMarkdown, errorCodeTable } from '@plaza/adapters-http';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');

/**
 * The README lists every error `code` (issue 32): its table is the catalogue of codes the error classes
 * take (packages/domain/src/shared/error-codes.ts) with the statuses the HTTP adapter gives them, so a
 * new code, or a changed meaning, changes the README in the same commit.
 */
describe('error codes', () => {
  it('the README table is the catalogue', () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    const table = /<!-- error-codes:start -->\n([\s\S]*?)\n<!-- error-codes:end -->/.exec(readme)?.[1];
    expect(table, 'README.md has no <!-- error-codes:start --> … <!-- error-codes:end --> section').toBeDefined();
    // On a mismatch, the expected side is the table to paste between the markers.
    expect(table).toBe(errorCodesMarkdown());
  });

  it('codes are snake_case, listed once, each with a status and a meaning', () => {
    const rows = errorCodeTable();
    expect(new Set(rows.map((r) => r.code)).size).toBe(rows.length);
    for (const row of rows) {
      expect(row.code).toMatch(/^[a-z][a-z0-9_]*$/);
      expect(row.statuses.length, row.code).toBeGreaterThan(0);
      expect(row.meaning.length, row.code).toBeGreaterThan(8);
    }
    expect(rows.find((r) => r.code === 'invalid_input')?.statuses).toEqual([400]);
    expect(rows.find((r) => r.code === 'invalid_credentials')?.statuses).toEqual([200, 401]);
    expect(rows.find((r) => r.code === 'unsupported_media_type')?.statuses).toEqual([415]);
  });

  it('every refusal of the federation endpoints is in the table, with its status', () => {
    const dir = join(root, 'packages', 'adapters-activitypub', 'src');
    const used = readdirSync(dir)
      .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
      .flatMap((f) => [...readFileSync(join(dir, f), 'utf8').matchAll(/errorResponse\(\s*(\d{3}),\s*'([a-z0-9_]+)'/g)])
      .map((m) => ({ status: Number(m[1]), code: m[2] }));
    expect(used.length).toBeGreaterThan(5);
    const table = new Map(errorCodeTable().map((r) => [r.code, r.statuses]));
    expect(used.filter((u) => !table.get(u.code)?.includes(u.status))).toEqual([]);
  });
});
