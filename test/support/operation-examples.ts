/// <reference types="vite/client" />
import type { AnyOperation, Script } from '@plaza/adapters-http';
import { z } from 'zod';
import type { ApiClient, ApiResponse } from './client.js';
import { MOBILE_APP } from './mothers.js';
import type { Example, Examples, Fixtures } from './operation-fixtures.js';

export { seedFixtures, unique, type Example, type Examples, type Fixtures } from './operation-fixtures.js';

/**
 * A valid request for each operation of the registry, for the sweeps that vary one field at a time
 * (test/e2e/input-widths.test.ts, unknown-ids.test.ts, fuzz.test.ts): the other fields must be right
 * for the varied one to reach the code under test. Each context keeps its examples in
 * test/support/examples/<context>.ts, collected here: a script added tomorrow gets its line in its
 * context's file (a new context adds its file, and nothing else); the sweeps fail, naming the
 * operation, until it has one.
 */

/** The token of whoever sends the example (`me` unless it says `as`). */
export function tokenOf(f: Fixtures, example: Example): string {
  return example.as ? f[example.as].token : f.me.token;
}

/** The example with `field` set to `value`, and the aliases it stands for left out. */
export function withField(example: Example, field: InputField, value: unknown): Example {
  const body = { ...example.body };
  const aliases = example.aliases ?? [];
  if (aliases.includes(field.name)) for (const alias of aliases) if (alias !== field.name) delete body[alias];
  if (field.where === 'query') return { ...example, body, query: { ...example.query, [field.name]: value as string } };
  return { ...example, body: { ...body, [field.name]: value } };
}

/** `METHOD script.php action=… path=… has=…`: an operation's name in the tables and in failures. */
export function labelOf(script: string, o: Pick<AnyOperation, 'method' | 'select'>): string {
  const s = o.select ?? {};
  return [
    o.method,
    script.endsWith('.php') ? script : `${script}.php`,
    s.action !== undefined ? `action=${s.action}` : '',
    s.path !== undefined ? `path=${s.path}` : '',
    s.has?.length ? `has=${s.has.join(',')}` : '',
  ]
    .filter(Boolean)
    .join(' ');
}

/**
 * The valid request of every operation that reads or writes by an id or stores a string; `undefined`
 * for the others (no input, or only enums and flags). Each call builds a fresh one. Collected from
 * every file of test/support/examples/ (vite's eager glob: no list of contexts to keep); an operation
 * two files give an example fails here.
 */
export const EXAMPLES: Examples = collectExamples(import.meta.glob<Examples>('./examples/*.ts', { eager: true, import: 'EXAMPLES' }));

function collectExamples(files: Record<string, Examples>): Examples {
  const all: Examples = {};
  const from: Record<string, string> = {};
  for (const [file, examples] of Object.entries(files)) {
    for (const [label, example] of Object.entries(examples)) {
      if (from[label]) throw new Error(`${label} has an example in both ${from[label]} and ${file}: one context's file gives it`);
      from[label] = file;
      all[label] = example;
    }
  }
  return all;
}

/** The URL and body of an example: `?action=`, `?path=` with its parameters filled in, the other query keys. */
export function requestOf(script: string, o: Pick<AnyOperation, 'select'>, example: Example): { url: string; body: unknown } {
  const params = new URLSearchParams();
  const query = { ...example.query };
  if (o.select?.action) params.set('action', o.select.action);
  if (o.select?.path !== undefined) {
    params.set(
      'path',
      o.select.path.replace(/:(\w+)/g, (_, name: string) => {
        const value = query[name];
        delete query[name];
        return String(value);
      }),
    );
  }
  for (const [k, v] of Object.entries(query)) params.set(k, String(v));
  const qs = params.toString().replace(/%2F/g, '/');
  return { url: `${script.endsWith('.php') ? script : `${script}.php`}${qs ? `?${qs}` : ''}`, body: example.body ?? {} };
}

/**
 * Sends a request of `o` as `token`'s user. `auth: "none"` operations go without: auth.php's refresh
 * and revoke read the bearer token themselves and would spend it.
 */
export async function send(
  api: ApiClient,
  o: Pick<AnyOperation, 'method' | 'auth'>,
  url: string,
  body: unknown,
  token: string,
): Promise<ApiResponse> {
  // calls.php refuses requests without the mobile-app header (403) before reading the ids and texts swept.
  const headers = url.startsWith('calls.php') ? MOBILE_APP : undefined;
  return api.request(o.method, url, o.method === 'GET' ? undefined : body, o.auth === 'none' ? {} : { token, headers });
}

type Json = Record<string, any>;

/** The alternatives of a JSON Schema node, nested `anyOf` flattened (`nullish()` and unions give them). */
function branches(node: Json): Json[] {
  return Array.isArray(node.anyOf) ? node.anyOf.flatMap(branches) : [node];
}

/** Free text (not an enum, constant or digit pattern) of at most `maxLength` characters. */
function isText(node: Json): node is Json & { maxLength?: number } {
  return node.type === 'string' && node.enum === undefined && node.const === undefined && node.pattern === undefined;
}

/** An id as `zId` declares it: a positive integer, or its digits. */
function isId(node: Json): boolean {
  const b = branches(node);
  return (
    b.some((x) => x.type === 'integer' && x.exclusiveMinimum === 0) &&
    b.some((x) => x.type === 'string' && typeof x.pattern === 'string' && x.pattern.startsWith('^\\d'))
  );
}

export interface InputField {
  where: 'query' | 'body';
  name: string;
}

/** A free-text field: sent as a string, or (`item`) as the element of an array of strings. */
export interface TextField extends InputField {
  shape: 'string' | 'item';
  maxLength: number | undefined;
}

export interface IdField extends InputField {
  list: boolean;
}

function propertiesOf(schema: unknown): [string, Json][] {
  if (!schema) return [];
  const js = z.toJSONSchema(schema as z.ZodType, { io: 'input', unrepresentable: 'any' }) as Json;
  return Object.entries((js.properties ?? {}) as Record<string, Json>);
}

/** Every input of an operation, from its zod schemas (unions and refinements included). */
export function inputFieldsOf(o: AnyOperation): InputField[] {
  return (['query', 'body'] as const).flatMap((where) => propertiesOf(o[where]).map(([name]) => ({ where, name })));
}

/** Every free-text input of an operation, from its zod schemas. */
export function textFieldsOf(o: AnyOperation): TextField[] {
  return (['query', 'body'] as const).flatMap((where) =>
    propertiesOf(o[where]).flatMap(([name, node]) =>
      branches(node).flatMap((b): TextField[] => {
        if (isText(b)) return [{ where, name, shape: 'string', maxLength: b.maxLength }];
        if (b.type === 'array' && b.items && isText(b.items)) return [{ where, name, shape: 'item', maxLength: b.items.maxLength }];
        return [];
      }),
    ),
  );
}

/** Every id input of an operation (`zId`, or a list of them), path parameters included. */
export function idFieldsOf(o: AnyOperation): IdField[] {
  return (['query', 'body'] as const).flatMap((where) =>
    propertiesOf(o[where]).flatMap(([name, node]): IdField[] => {
      const b = branches(node);
      if (b.some(isId) || isId(node)) return [{ where, name, list: false }];
      if (b.some((x) => x.type === 'array' && x.items && isId(x.items))) return [{ where, name, list: true }];
      return [];
    }),
  );
}

/** Every operation of the composed server, with its label. */
export function operationsOf(scripts: Script[]): { script: string; o: AnyOperation; label: string }[] {
  return scripts.flatMap((s) => s.operations.map((o) => ({ script: `${s.name}.php`, o, label: labelOf(s.name, o) })));
}
