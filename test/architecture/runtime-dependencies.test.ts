import { builtinModules } from 'node:module';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The production bundle (`npm run package`, docs/decisions/0100) installs each workspace's
 * `dependencies` and nothing of `devDependencies`: a package the server loads at run time but that only
 * a root devDependency provides works in a checkout and breaks in production. Each workspace's
 * production sources (not its tests nor its `testing/` fakes) may load only its own dependencies.
 */

const root = join(import.meta.dirname, '..', '..');
const WORKSPACES: string[] = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).workspaces;
const BUILTIN = new Set(builtinModules);

function productionSources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'testing' ? [] : productionSources(path);
    return name.endsWith('.ts') && !name.endsWith('.test.ts') ? [path] : [];
  });
}

/** Packages a file loads at run time: imports and re-exports that are not type-only, dynamic imports, and `createRequire(…)('x')` / `.resolve('x')`. */
function runtimeImports(text: string): string[] {
  const specifiers = [
    ...[...text.matchAll(/^\s*(?:import|export)\s+(?!type\s)[^;]*?\bfrom\s*['"]([^'"]+)['"]/gm)].map((m) => m[1]),
    ...[...text.matchAll(/^\s*import\s+['"]([^'"]+)['"]/gm)].map((m) => m[1]),
    ...[...text.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)].map((m) => m[1]),
    ...[...text.matchAll(/createRequire\([^)]*\)(?:\.resolve)?\(\s*['"]([^'"]+)['"]\s*\)/g)].map((m) => m[1]),
  ];
  return specifiers
    .filter((s) => !s.startsWith('.') && !s.startsWith('node:') && !BUILTIN.has(s))
    .map((s) => (s.startsWith('@') ? s.split('/').slice(0, 2).join('/') : s.split('/')[0]));
}

describe('runtime dependencies', () => {
  it('every package a workspace loads at run time is in its own dependencies', () => {
    const missing = WORKSPACES.flatMap((workspace) => {
      const declared = new Set(Object.keys(JSON.parse(readFileSync(join(root, workspace, 'package.json'), 'utf8')).dependencies ?? {}));
      return productionSources(join(root, workspace, 'src')).flatMap((file) =>
        runtimeImports(readFileSync(file, 'utf8'))
          .filter((name) => !declared.has(name))
          .map((name) => `${relative(root, file)} loads ${name}, not in ${workspace}/package.json dependencies`),
      );
    });
    expect([...new Set(missing)]).toEqual([]);
  });

  it('sees value imports, dynamic imports and createRequire, and skips types and relative paths', () => {
    const text = [
      "import { Temporal } from '@js-temporal/polyfill';",
      "import type { Logger } from 'pino';",
      "export { x } from './x.js';",
      "import { readFileSync } from 'node:fs';",
      "const sharp = await import('sharp');",
      "const csrf = createRequire(import.meta.url)('koa-csrf');",
      "const dir = createRequire(import.meta.url).resolve('swagger-ui-dist/package.json');",
    ].join('\n');
    expect(runtimeImports(text)).toEqual(['@js-temporal/polyfill', 'sharp', 'koa-csrf', 'swagger-ui-dist']);
  });
});
