import { type Actor, Invalid, NotFound, type RateLimitGroup } from '@plaza/domain';
import { z } from 'zod';
import type { AnyOperation, Script, Selector } from './operation.js';
import { fieldProblems, problemsMessage } from './field-messages.js';

export interface RawRequest {
  method: string;
  query: Record<string, string | string[] | undefined>;
  body: unknown;
}

export class MethodNotAllowed extends Error {
  /** May include HEAD, which is served as GET but is no declarable `HttpMethod`. */
  constructor(readonly allow: string[]) {
    super(`Method not allowed; use ${allow.join(', ')}`);
  }
}

export interface Resolved {
  operation: AnyOperation;
  /** `:name` captures of a `?path=` pattern. */
  params: Record<string, string>;
}

function firstString(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}

const ID_SEGMENT = /^\d{1,15}$/;

function segments(path: string): string[] {
  return path.split('/').filter(Boolean);
}

/** Matches `?path=` (its segments) against a pattern's segments, such as `:id/requests/:request_id/approve`. */
function matchPath(want: readonly string[], got: readonly string[]): Record<string, string> | null {
  if (want.length !== got.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    if (want[i].startsWith(':')) {
      if (!ID_SEGMENT.test(got[i])) return null;
      params[want[i].slice(1)] = got[i];
    } else if (want[i] !== got[i]) return null;
  }
  return params;
}

/** Whether some `?path=` value matches both patterns. */
function pathsOverlap(a: string, b: string): boolean {
  const x = segments(a);
  const y = segments(b);
  if (x.length !== y.length) return false;
  return x.every((s, i) => {
    const t = y[i];
    if (s.startsWith(':')) return t.startsWith(':') || ID_SEGMENT.test(t);
    return t.startsWith(':') ? ID_SEGMENT.test(s) : s === t;
  });
}

function sameKeys(a: readonly string[], b: readonly string[]): boolean {
  const x = new Set(a);
  const y = new Set(b);
  return x.size === y.size && [...x].every((k) => y.has(k));
}

const METHOD_ORDER = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE'];

/** The methods of these operations, HEAD wherever GET is (HEAD is served as GET). */
function allowOf(operations: AnyOperation[]): string[] {
  const methods = new Set<string>(operations.map((o) => o.method));
  if (methods.has('GET')) methods.add('HEAD');
  return METHOD_ORDER.filter((m) => methods.has(m));
}

/** A selector as the query that reaches it, e.g. `?action=react` or `?path=:id&id=…`. */
function describeSelector(sel: Selector | undefined): string {
  const parts = [
    ...(sel?.action ? [`action=${sel.action}`] : []),
    ...(sel?.path ? [`path=${sel.path}`] : []),
    ...(sel?.has ?? []).map((k) => `${k}=…`),
  ];
  return parts.length ? `?${parts.join('&')}` : '(no selector)';
}

interface Declarations {
  /** The actions the script's operations declare. */
  declaredActions: ReadonlySet<string>;
  /** Whether any operation routes by `?path=`. */
  usesPath: boolean;
  /** Each operation's `?path=` pattern as segments, in declaration order (none: no segments). */
  patterns: readonly (readonly string[])[];
}

/**
 * What `resolveOperation` reads of a script's declarations, derived once per script rather than on
 * every request (a script's operations do not change once it is declared).
 */
const declarations = new WeakMap<Script, Declarations>();
function declarationsOf(script: Script): Declarations {
  let known = declarations.get(script);
  if (!known) {
    known = {
      declaredActions: new Set(script.operations.flatMap((o) => (o.select?.action ? [o.select.action] : []))),
      usesPath: script.operations.some((o) => o.select?.path !== undefined),
      patterns: script.operations.map((o) => segments(o.select?.path ?? '')),
    };
    declarations.set(script, known);
  }
  return known;
}

/**
 * Picks the operation of a script that serves a request, from the declarations alone; declaration order
 * never matters because `assertUnambiguous` guarantees at most one operation matches. The layers:
 * 1. an action nobody declares is a 400 naming the valid ones; a method no operation has is a 405;
 * 2. the action and `?path=` the request names locate operations, whatever their method; a path that
 *    locates none is a 404, and a named action or path whose operations all have other methods is a 405;
 * 3. among the located operations of the request's method, the one whose `has` keys are exactly the
 *    present ones (see `Selector`) serves it. A request that selects none (a key or the action missing,
 *    or two exclusive keys at once) is a 400 listing what would select one: the method exists, so a
 *    field is missing, which is not a 405.
 * HEAD is served as GET.
 */
export function resolveOperation(script: Script, req: RawRequest): Resolved {
  const requested = req.method.toUpperCase();
  const method = requested === 'HEAD' ? 'GET' : requested;
  const queryAction = firstString(req.query.action);
  const bodyAction =
    req.body && typeof req.body === 'object' && !Array.isArray(req.body) && typeof (req.body as Record<string, unknown>).action === 'string'
      ? ((req.body as Record<string, unknown>).action as string)
      : undefined;
  const { declaredActions, usesPath, patterns } = declarationsOf(script);
  if (queryAction !== undefined && queryAction !== '' && !declaredActions.has(queryAction)) {
    throw unknownAction(script, queryAction, declaredActions);
  }
  // A body `action` routes only when it names a declared action (or when no query action was given
  // and the script routes by body action at all); otherwise it is plain data.
  const action = queryAction || (bodyAction && declaredActions.has(bodyAction) ? bodyAction : undefined);
  if (!action && bodyAction && declaredActions.size > 0 && !queryAction) {
    const bodyRouted = script.operations.some((o) => o.select?.action && o.method === method);
    if (bodyRouted) throw unknownAction(script, bodyAction, declaredActions);
  }

  const ofMethod = script.operations.filter((o) => o.method === method);
  if (ofMethod.length === 0) throw new MethodNotAllowed(allowOf(script.operations));

  // Only scripts that route by path read `?path=`; elsewhere it is plain data.
  const pathSegments = usesPath ? segments(firstString(req.query.path) ?? '') : [];
  const path = pathSegments.join('/');
  const located: Resolved[] = [];
  for (let i = 0; i < script.operations.length; i++) {
    const operation = script.operations[i];
    if (operation.select?.action !== action) continue;
    const params = matchPath(patterns[i], pathSegments);
    if (params) located.push({ operation, params });
  }

  const forMethod = located.filter((r) => r.operation.method === method);
  if (forMethod.length) {
    const keys = new Set(forMethod.flatMap((r) => r.operation.select?.has ?? []));
    const present = [...keys].filter((k) => req.query[k] !== undefined);
    const hit = forMethod.find((r) => sameKeys(r.operation.select?.has ?? [], present));
    if (hit) return hit;
    throw noSelection(
      script,
      method,
      forMethod.map((r) => r.operation),
    );
  }
  if ((action !== undefined || path !== '') && located.length) throw new MethodNotAllowed(allowOf(located.map((r) => r.operation)));
  if (path !== '') throw new NotFound(`No operation at path "${path}"`, 'unknown_path');
  throw noSelection(script, method, ofMethod);
}

function noSelection(script: Script, method: string, candidates: AnyOperation[]): Invalid {
  const options = [...new Set(candidates.map((o) => describeSelector(o.select)))];
  const problem = `send exactly one of: ${options.join(', ')}`;
  const fields = [
    ...new Set(
      candidates.flatMap((o) => [...(o.select?.action ? ['action'] : []), ...(o.select?.path ? ['path'] : []), ...(o.select?.has ?? [])]),
    ),
  ];
  return new Invalid(
    `${method} ${script.name}.php: ${problem}`,
    'invalid_input',
    (fields.length ? fields : ['(query)']).map((field) => ({ field, problem })),
  );
}

/**
 * Refuses, at start-up, two operations of one script that can match the same request: same method,
 * same action, `?path=` patterns that some value matches both, and the same `has` keys. With the exact
 * `has` semantics of `Selector` those are the only overlaps, so the check is both sound and complete.
 */
export function assertUnambiguous(script: Script): void {
  const ops = script.operations;
  for (let i = 0; i < ops.length; i++) {
    for (let j = i + 1; j < ops.length; j++) {
      const a = ops[i].select ?? {};
      const b = ops[j].select ?? {};
      if (ops[i].method !== ops[j].method || a.action !== b.action) continue;
      if (!pathsOverlap(a.path ?? '', b.path ?? '') || !sameKeys(a.has ?? [], b.has ?? [])) continue;
      const name = (o: AnyOperation) => `"${o.method} ${describeSelector(o.select)}: ${o.summary}"`;
      throw new Error(
        `${script.name}.php: operations ${name(ops[i])} and ${name(ops[j])} can both match one request; give them different actions, paths or has keys`,
      );
    }
  }
}

function unknownAction(script: Script, action: string, declared: ReadonlySet<string>): Invalid {
  const valid = [...declared].sort();
  return new Invalid(
    `Unknown action "${action}" for ${script.name}.php; valid actions: ${valid.join(', ') || '(none)'}`,
    'unknown_action',
    [{ field: 'action', problem: `must be one of ${valid.join(', ')}` }],
  );
}

/** Validates query (with path captures) and body against the operation's schemas. */
export function parseInput(resolved: Resolved, req: RawRequest): { query: unknown; body: unknown } {
  const { operation, params } = resolved;
  const rawQuery: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(req.query)) rawQuery[k] = firstString(v);
  Object.assign(rawQuery, params);
  const query = operation.query ? parseWith(operation.query, rawQuery, 'query') : {};
  let body: unknown = {};
  if (operation.body) {
    const raw = req.body === undefined ? {} : req.body;
    if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
      throw new Invalid('The request body must be a JSON object', 'invalid_body', [{ field: '(body)', problem: 'must be a JSON object' }]);
    }
    body = parseWith(operation.body, raw, 'body');
  }
  return { query, body };
}

function parseWith(schema: z.ZodType, value: unknown, where: 'query' | 'body'): unknown {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const details = fieldProblems(result.error, { schema, input: value, root: `(${where})` });
  throw new Invalid(problemsMessage(details), 'invalid_input', details);
}

/**
 * The group a request of `script` counts in, from its method and query alone: the group of the operation
 * they select, `default` when they select none (resolution errors count there). Null when a body
 * `action` may still choose the operation, so that only the body tells (docs/decisions/0102).
 */
export function rateLimitGroupBeforeBody(script: Script, req: Omit<RawRequest, 'body'>): RateLimitGroup | null {
  const requested = req.method.toUpperCase();
  const method = requested === 'HEAD' ? 'GET' : requested;
  if (!firstString(req.query.action) && script.operations.some((o) => o.select?.action && o.method === method)) return null;
  try {
    return rateLimitGroupOf(resolveOperation(script, { ...req, body: undefined }).operation);
  } catch {
    return 'default';
  }
}

/** The declared group, else `reads` for GET and `default` for writes. */
export function rateLimitGroupOf(operation: AnyOperation | undefined): RateLimitGroup {
  return operation?.rateLimit ?? (operation?.method === 'GET' ? 'reads' : 'default');
}

export type { Actor };
