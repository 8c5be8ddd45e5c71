import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.ts$/.test(name) ? [path] : [];
  });
}

function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/(?:from|import)\s*\(?\s*['"]([^'"]+)['"]/g)].map((m) => m[1]);
}

describe('dependency rule', () => {
  it('keeps the domain free of frameworks, drivers and adapters', () => {
    const forbidden = /^(koa|@koa\/|koa-|kysely|mysql2|better-sqlite3|inversify|reflect-metadata|pino|@plaza\/)/;
    const domainSrc = join(root, 'packages/domain/src');
    // Test support (fakes and contract suites) may use vitest; production code may not.
    const offenders = sources(domainSrc)
      .filter((f) => !f.endsWith('.test.ts'))
      .flatMap((f) =>
        importsOf(f)
          .filter((i) => forbidden.test(i) || (i === 'vitest' && !relative(domainSrc, f).split('/').includes('testing')))
          .map((i) => `${relative(root, f)} imports ${i}`),
      );
    expect(offenders).toEqual([]);
  });

  it('lets only apps/server import adapters', () => {
    const adapterPackages = ['adapters-http', 'adapters-mysql', 'adapters-activitypub', 'adapters-integrations'];
    const offenders = adapterPackages.flatMap((pkg) =>
      sources(join(root, 'packages', pkg, 'src')).flatMap((f) =>
        importsOf(f)
          .filter((i) => /^@plaza\/(adapters-|server)/.test(i))
          .map((i) => `${relative(root, f)} imports ${i}`),
      ),
    );
    expect(offenders).toEqual([]);
  });

  it('catches a forbidden import when one is present', () => {
    // Guards the guard: the pattern really matches the kinds of imports it must refuse.
    expect(importsOf(join(root, 'packages/adapters-mysql/src/connection.ts'))).toContain('kysely');
  });
});
