import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const read = (path: string) => readFileSync(new URL(path, import.meta.url), 'utf8');

/** The variables config.ts parses: the keys of its schema object. */
function schemaVariables(): string[] {
  const source = read('./config.ts');
  const start = source.indexOf('const envSchema = z');
  const schema = source.slice(start, source.indexOf('\n  .superRefine(', start));
  // The formatter puts the schema's keys four spaces in (z, then .object({ on lines of their own).
  return [...schema.matchAll(/^ {4}([A-Z][A-Z0-9_]+):/gm)].map((m) => m[1]);
}

describe('.env.example', () => {
  it('lists every variable the configuration reads, commented out at its default', () => {
    const variables = schemaVariables();
    expect(variables).toContain('DB_CONNECT_TIMEOUT_S');
    expect(variables.length).toBeGreaterThan(50);
    const example = read('../../../.env.example');
    const listed = new Set([...example.matchAll(/^# ([A-Z][A-Z0-9_]+)=/gm)].map((m) => m[1]));
    expect(variables.filter((v) => !listed.has(v))).toEqual([]);
    // Nothing is set by the file itself: copying it changes no default.
    expect(example.split('\n').filter((line) => line.trim() && !line.startsWith('#'))).toEqual([]);
  });
});
