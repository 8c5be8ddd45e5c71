import { Invalid, NotFound, type Actor, type RateLimitGroup } from '@plaza/domain';
import { z } from 'zod';
import type { HttpMethod, Operation, Script } from './operation.js';

export interface RawRequest {
  method: string;
  query: Record<string, string | string[] | undefined>;
  body: unknown;
}

export class MethodNotAllowed extends Error {
  constructor(readonly allow: HttpMethod[]) {
    super(`Method not allowed; use ${allow.join(', ')}`);
  }
}

export interface Resolved {
  operation: Operation<any, any>;
  /** `:name` captures of a `?path=` pattern. */
  params: Record<string, string>;
}

function firstString(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}

/** Matches `?path=` against a pattern such as `:id/requests/:request_id/approve`. */
function matchPath(pattern: string, path: string): Record<string, string> | null {
  const want = pattern.split('/').filter(Boolean);
  const got = path.split('/').filter(Boolean);
  if (want.length !== got.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    if (want[i].startsWith(':')) {
      if (!/^\d{1,15}$/.test(got[i])) return null;
      params[want[i].slice(1)] = got[i];
    } else if (want[i] !== got[i]) return null;
  }
  return params;
}

/**
 * Picks the operation of a script that serves a request, from the declarations alone. The rules, in
 * order: an action nobody declares is a 400 naming the valid ones; a request whose selectors match only
 * operations of other methods is a 405; a request that matches on action and path but lacks a required
 * query key still reaches its operation, whose validation then names the missing field.
 */
export function resolveOperation(script: Script, req: RawRequest): Resolved {
  const method = req.method.toUpperCase();
  const queryAction = firstString(req.query.action);
  const bodyAction =
    req.body && typeof req.body === 'object' && !Array.isArray(req.body) && typeof (req.body as Record<string, unknown>).action === 'string'
      ? ((req.body as Record<string, unknown>).action as string)
      : undefined;
  const declaredActions = new Set(script.operations.flatMap((o) => (o.select?.action ? [o.select.action] : [])));
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

  const usesPath = script.operations.some((o) => o.select?.path !== undefined);
  const path = firstString(req.query.path) ?? '';

  const actionAndPath: Resolved[] = [];
  for (const operation of script.operations) {
    const sel = operation.select ?? {};
    if ((sel.action ?? undefined) !== action) continue;
    let params: Record<string, string> = {};
    if (sel.path !== undefined) {
      const m = matchPath(sel.path, path);
      if (!m) continue;
      params = m;
    } else if (usesPath && path !== '') continue;
    actionAndPath.push({ operation, params });
  }
  const hasAll = (r: Resolved) => (r.operation.select?.has ?? []).every((k) => req.query[k] !== undefined);
  const strict = actionAndPath.filter(hasAll);
  const strictForMethod = strict.find((r) => r.operation.method === method);
  if (strictForMethod) return strictForMethod;
  const looseForMethod = actionAndPath.find((r) => r.operation.method === method);
  if (strict.length === 0 && looseForMethod) return looseForMethod;
  const candidates = strict.length ? strict : actionAndPath;
  if (candidates.length) throw new MethodNotAllowed([...new Set(candidates.map((r) => r.operation.method))]);
  if (usesPath && path !== '') throw new NotFound(`No operation at path "${path}"`, 'unknown_path');
  throw new MethodNotAllowed([...new Set(script.operations.map((o) => o.method))]);
}

function unknownAction(script: Script, action: string, declared: Set<string>): Invalid {
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
  const details = result.error.issues.map((issue) => ({
    field: issue.path.map(String).join('.') || `(${where})`,
    problem: issue.message,
  }));
  throw new Invalid(details.map((d) => `${d.field}: ${d.problem}`).join('; '), 'invalid_input', details);
}

/** The declared group, else `reads` for GET and `default` for writes. */
export function rateLimitGroupOf(operation: Operation<any, any> | undefined): RateLimitGroup {
  return operation?.rateLimit ?? (operation?.method === 'GET' ? 'reads' : 'default');
}

export type { Actor };
