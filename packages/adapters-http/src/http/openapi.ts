import { z } from 'zod';
import { rateLimitGroupOf } from './dispatcher.js';
import { errorCodeTable } from './error-codes.js';
import type { AnyOperation, Script, Selector } from './operation.js';
import { selectorPathOf } from './selector-paths.js';

/**
 * The OpenAPI 3.1 description of every operation of the registry (docs/decisions/0007).
 *
 * Each declared operation is exactly one OpenAPI operation. Its path key is a URL the server answers,
 * with the selector written as path segments (`/friends.php/action/send`, `/messages.php/user_id/{user_id}`,
 * `/message_groups.php/path/{id}/messages`; http/selector-paths.ts, docs/decisions/0170), since a path key
 * takes no query string and a path holds one operation per method. The query form the clients send
 * (`/friends.php?action=send`) is the same operation, named by `x-plaza-query-form`. The `{name}` captures
 * of a `?path=` pattern and the keys of a `has` selector are `in: path` parameters; the remaining query
 * fields are ordinary `in: query` parameters.
 */

type Json = Record<string, unknown>;

export interface OpenApiInfo {
  title: string;
  version: string;
  /** Public base URL of the server, without a trailing slash; `/api/v1` is appended. */
  serverUrl: string;
}

type AnySelector = Selector;

/** What the test suite recorded of one operation (openapi-examples.json, docs/decisions/0171). */
export interface RecordedOperation {
  /** The test file whose call this is. */
  source?: string;
  request?: { query?: Record<string, unknown>; body?: unknown };
  response?: { status: number; body: unknown };
  /** The `code`s of the failures seen, by status. */
  failures?: Record<string, string[]>;
}

export interface RecordedExamples {
  operations: Record<string, RecordedOperation>;
}

const ERROR_RESPONSES = {
  BadRequest: { status: '400', description: 'Invalid input, malformed JSON or an unknown action; `details` names the fields.' },
  Unauthorized: { status: '401', description: 'Missing, invalid, expired or revoked bearer token.' },
  Forbidden: {
    status: '403',
    description: 'Not allowed: a banned or suspended account, a permission the caller lacks, or plain HTTP where HTTPS is required.',
  },
  NotFound: { status: '404', description: 'Unknown resource, script or `?path=`.' },
  MethodNotAllowed: { status: '405', description: 'The selector matches only operations of other methods; `Allow` lists them.' },
  Conflict: { status: '409', description: 'The state does not allow it (already done, taken, or changed meanwhile).' },
  PayloadTooLarge: { status: '413', description: 'The body (or the uploaded file) is larger than the server reads.' },
  UnsupportedMediaType: { status: '415', description: 'A body encoding, charset or file type the server does not read.' },
  Unprocessable: { status: '422', description: 'Well-formed but not acceptable as it stands.' },
  TooManyRequests: { status: '429', description: "Over the rate limit of this operation's group; retry after `Retry-After` seconds." },
  ServiceUnavailable: { status: '503', description: 'A dependency (database, mail, push, …) is down or not configured.' },
} as const;

const RESPONSE_OF_STATUS: Record<string, keyof typeof ERROR_RESPONSES> = Object.fromEntries(
  Object.entries(ERROR_RESPONSES).map(([name, r]) => [r.status, name as keyof typeof ERROR_RESPONSES]),
);

const RATE_LIMIT_HEADERS = {
  'X-RateLimit-Limit': { $ref: '#/components/headers/X-RateLimit-Limit' },
  'X-RateLimit-Remaining': { $ref: '#/components/headers/X-RateLimit-Remaining' },
  'X-RateLimit-Reset': { $ref: '#/components/headers/X-RateLimit-Reset' },
};

/** `message_groups` → `messageGroups`, `forgot_password` → `ForgotPassword` (with `upper`). */
function camel(text: string, upper = false): string {
  const words = text.split(/[^A-Za-z0-9]+/).filter(Boolean);
  return words.map((w, i) => (i === 0 && !upper ? w[0].toLowerCase() : w[0].toUpperCase()) + w.slice(1)).join('');
}

function selectorOf(o: AnyOperation): AnySelector {
  return (o.select ?? {}) as AnySelector;
}

/** A `path: ''` selector is the same as none: the dispatcher then requires `?path=` to be empty or absent. */
function pathSegments(sel: AnySelector): string[] {
  return (sel.path ?? '').split('/').filter(Boolean);
}

/**
 * `<script>.<method><Action><PathParts><WithHasKeys>`, e.g. `friends.postSend`, `messages.getWithUserId`,
 * `messageGroups.getByIdMessages`, `messageGroups.postByIdRequestsByRequestIdApprove`. It depends only on
 * the script name, the method and the selector, so it stays stable as operations are added elsewhere.
 */
export function operationIdOf(script: Script, o: AnyOperation): string {
  const sel = selectorOf(o);
  let id = o.method.toLowerCase();
  if (sel.action) id += camel(sel.action, true);
  for (const seg of pathSegments(sel)) id += seg.startsWith(':') ? `By${camel(seg.slice(1), true)}` : camel(seg, true);
  for (const key of sel.has ?? []) id += `With${camel(key, true)}`;
  return `${camel(script.name)}.${id}`;
}

/**
 * The path key: the URL the client calls, relative to the server URL, with the selector written as path
 * segments (`/friends.php/action/send`, `/message_groups.php/path/{id}/messages`; see http/selector-paths.ts).
 * OpenAPI path keys take no query string, and each method of a path holds one operation.
 */
export function pathKeyOf(script: Script, o: AnyOperation): string {
  return `/${script.name}.php${selectorPathOf(selectorOf(o))}`;
}

/** The same URL in the query form the PHP service took and the mobile clients send (`/friends.php?action=send`). */
export function queryFormOf(script: Script, o: AnyOperation): string {
  const sel = selectorOf(o);
  const parts: string[] = [];
  if (sel.action) parts.push(`action=${encodeURIComponent(sel.action)}`);
  const segs = pathSegments(sel);
  if (segs.length) parts.push(`path=${segs.map((s) => (s.startsWith(':') ? `{${s.slice(1)}}` : encodeURIComponent(s))).join('/')}`);
  for (const key of sel.has ?? []) {
    if (key === 'action' || key === 'path') continue;
    parts.push(`${encodeURIComponent(key)}={${key}}`);
  }
  return `/${script.name}.php${parts.length ? `?${parts.join('&')}` : ''}`;
}

function isPlainObjectSchema(s: Json): boolean {
  return s.type === 'object' && !('anyOf' in s) && !('oneOf' in s) && !('allOf' in s) && !('$ref' in s) && !('not' in s);
}

function walk(value: unknown, visit: (node: Json) => void): void {
  if (Array.isArray(value)) for (const v of value) walk(v, visit);
  else if (value && typeof value === 'object') {
    visit(value as Json);
    for (const v of Object.values(value as Json)) walk(v, visit);
  }
}

/** A deep copy whose `#/$defs/<key>` references point at `#/components/schemas/<target(key)>`. */
function rewriteDefs(value: Json, target: (key: string) => string | undefined): Json {
  const copy = structuredClone(value);
  walk(copy, (node) => {
    const m = typeof node.$ref === 'string' ? /^#\/\$defs\/(.+)$/.exec(node.$ref) : null;
    const to = m ? target(m[1]) : undefined;
    if (to) node.$ref = `#/components/schemas/${to}`;
  });
  return copy;
}

function stableStringify(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableStringify).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${stableStringify((value as Json)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

class DocumentBuilder {
  readonly schemas: Record<string, Json> = {};
  /**
   * Converts a zod schema to a JSON Schema (draft 2020-12, the OpenAPI 3.1 dialect) that can be embedded
   * anywhere in the document: `$defs` (recursive or registered schemas) move to `components.schemas`.
   */
  convert(schema: unknown, io: 'input' | 'output', name: string): Json {
    let js: Json;
    try {
      js = z.toJSONSchema(schema as z.ZodType, { io, unrepresentable: 'any' }) as Json;
    } catch (error) {
      // Flagged rather than thrown, so that one odd schema does not take the whole document down.
      return { description: `Not representable in JSON Schema: ${(error as Error).message}`, 'x-schema-unrepresentable': true };
    }
    delete js.$schema;
    const defs = (js.$defs ?? {}) as Record<string, Json>;
    delete js.$defs;
    // `$defs` keys are zod registry ids (unique per schema: the same id is the same schema and is shared)
    // or `__schemaN` for recursion (named after this schema, so never shared).
    const desired = (key: string) => (key.startsWith('__') ? `${name}.${key.replace(/^_+/, '')}` : key).replace(/[^A-Za-z0-9._-]/g, '_');
    const final = new Map<string, string>();
    const reused = new Set<string>();
    for (const [key, def] of Object.entries(defs)) {
      const want = desired(key);
      const candidate = rewriteDefs(def, (k) => desired(k));
      if (want in this.schemas && stableStringify(this.schemas[want]) === stableStringify(candidate)) {
        final.set(key, want);
        reused.add(key);
      } else final.set(key, this.reserve(want));
    }
    let rootRef: string | undefined;
    const toComponent = (k: string) => final.get(k);
    const rewriteRoot = (node: Json) => {
      if (node.$ref === '#') {
        rootRef ??= this.reserve(name);
        node.$ref = `#/components/schemas/${rootRef}`;
      }
    };
    for (const [key, def] of Object.entries(defs)) {
      if (reused.has(key)) continue;
      const stored = rewriteDefs(def, toComponent);
      walk(stored, rewriteRoot);
      this.schemas[final.get(key)!] = stored;
    }
    const out = rewriteDefs(js, toComponent);
    walk(out, rewriteRoot);
    if (rootRef) {
      this.schemas[rootRef] = out;
      return { $ref: `#/components/schemas/${rootRef}` };
    }
    return out;
  }

  /** Stores a schema under `components.schemas` (a fresh key derived from `name`) and returns its `$ref`. */
  component(name: string, schema: Json): Json {
    if (typeof schema.$ref === 'string' && Object.keys(schema).length === 1) return schema;
    const key = this.reserve(name);
    this.schemas[key] = schema;
    return { $ref: `#/components/schemas/${key}` };
  }

  /** A free key of `components.schemas` derived from `name`, held with a placeholder. */
  private reserve(name: string): string {
    const base = name.replace(/[^A-Za-z0-9._-]/g, '_');
    let key = base;
    for (let i = 2; key in this.schemas; i++) key = `${base}_${i}`;
    this.schemas[key] = {};
    return key;
  }
}

/** Properties and required keys of an input object schema (a union of objects gives the union of its keys). */
function objectFields(js: Json): { properties: Record<string, Json>; required: Set<string> } {
  if (isPlainObjectSchema(js) || (js.type === 'object' && js.properties)) {
    return { properties: (js.properties ?? {}) as Record<string, Json>, required: new Set((js.required ?? []) as string[]) };
  }
  const branches = (js.anyOf ?? js.oneOf) as Json[] | undefined;
  if (branches) {
    const parts = branches.map(objectFields);
    const properties: Record<string, Json> = {};
    for (const p of parts) Object.assign(properties, p.properties);
    const required = new Set([...(parts[0]?.required ?? [])].filter((k) => parts.every((p) => p.required.has(k))));
    return { properties, required };
  }
  if (Array.isArray(js.allOf)) {
    const parts = (js.allOf as Json[]).map(objectFields);
    return {
      properties: Object.assign({}, ...parts.map((p) => p.properties)),
      required: new Set(parts.flatMap((p) => [...p.required])),
    };
  }
  return { properties: {}, required: new Set() };
}

/**
 * Query keys that select a sibling (same method, action and path) but not this operation: the
 * dispatcher serves this one only when they are absent (see `Selector`).
 */
function siblingKeysOf(script: Script, o: AnyOperation): string[] {
  const sel = selectorOf(o);
  const keys = new Set<string>();
  for (const other of script.operations) {
    const os = selectorOf(other);
    if (other === o || other.method !== o.method || os.action !== sel.action || os.path !== sel.path) continue;
    for (const k of os.has ?? []) if (!(sel.has ?? []).includes(k)) keys.add(k);
  }
  return [...keys].sort();
}

function describeSelector(sel: AnySelector, method: string, absent: string[], queryForm: string): string {
  const lines: string[] = [];
  if (sel.action || pathSegments(sel).length || sel.has?.length) {
    lines.push(`The same operation in query form: \`${queryForm}\`.`);
  }
  if (sel.action && method !== 'GET') lines.push(`The action may also be named by \`"action": "${sel.action}"\` in the request body.`);
  if (pathSegments(sel).length) lines.push(`Its \`path\` segments \`${sel.path}\`: each \`:name\` is a decimal integer.`);
  if (absent.length)
    lines.push(`Only when the query has none of ${absent.map((k) => `\`${k}\``).join(', ')}, which select other operations.`);
  return lines.join(' ');
}

/**
 * The failures an operation can answer, by status, with their codes: what its declaration implies
 * (selection and input 400, a body's 413 and 415, authentication's 401, the ban's 403, the limit's 429,
 * the database's 503), and what the test suite saw it answer (`failures` of the recording).
 */
function errorCodesOf(script: Script, o: AnyOperation, recorded: RecordedOperation | undefined): Record<string, string[]> {
  const codes: Record<string, Set<string>> = {};
  const add = (status: string, ...list: string[]) => {
    for (const c of list) (codes[status] ??= new Set()).add(c);
  };
  add('400', 'invalid_input');
  if (script.operations.some((x) => x.select?.action)) add('400', 'unknown_action');
  if (o.method !== 'GET') {
    // Every POST, PUT and DELETE body is read (JSON, form or multipart), declared fields or not.
    add('400', 'malformed_json', 'malformed_body', 'malformed_encoding');
    add('413', 'payload_too_large');
    add('415', 'unsupported_encoding', 'unsupported_media_type');
  }
  if (o.auth !== 'none') add('401', 'unauthenticated', 'invalid_token');
  if (o.auth !== 'none' && o.allowBanned !== true) add('403', 'banned', 'suspended');
  add('403', 'https_required');
  if (script.operations.some((x) => pathSegments(selectorOf(x)).length)) add('404', 'unknown_path');
  add('405', 'method_not_allowed');
  add('429', 'rate_limited');
  add('503', 'database_unavailable');
  for (const [status, list] of Object.entries(recorded?.failures ?? {})) if (RESPONSE_OF_STATUS[status]) add(status, ...list);
  return Object.fromEntries(
    Object.keys(codes)
      .sort()
      .map((status) => [status, [...codes[status]].sort()]),
  );
}

function envelope(payload: Json, success = true): Json {
  if (isPlainObjectSchema(payload) && payload.additionalProperties === undefined) {
    const properties = (payload.properties ?? {}) as Json;
    const required = ((payload.required ?? []) as string[]).filter((k) => k !== 'success');
    return { ...payload, properties: { success: { const: success }, ...properties }, required: ['success', ...required] };
  }
  return { allOf: [{ type: 'object', properties: { success: { const: success } }, required: ['success'] }, payload] };
}

function operationObject(b: DocumentBuilder, script: Script, o: AnyOperation, operationId: string, examples?: RecordedExamples): Json {
  const sel = selectorOf(o);
  const parameters: Json[] = [];
  const inPath = new Set<string>();
  const queryJs = o.query ? b.convert(o.query, 'input', `${operationId}.query`) : undefined;
  const query = queryJs ? objectFields(queryJs) : { properties: {}, required: new Set<string>() };

  for (const seg of pathSegments(sel)) {
    if (!seg.startsWith(':') || inPath.has(seg.slice(1))) continue;
    const name = seg.slice(1);
    inPath.add(name);
    parameters.push({
      name,
      in: 'path',
      required: true,
      description: `Segment \`:${name}\` of the \`path\` selector.`,
      schema: { type: 'integer', minimum: 0, maximum: 999_999_999_999_999 },
    });
  }
  for (const key of sel.has ?? []) {
    if (key === 'action' || key === 'path' || inPath.has(key)) continue;
    inPath.add(key);
    parameters.push({
      name: key,
      in: 'path',
      required: true,
      description: `Query key \`${key}\`, whose presence selects this operation.`,
      schema: query.properties[key] ?? { type: 'string' },
    });
  }
  for (const [name, schema] of Object.entries(query.properties)) {
    if (inPath.has(name)) continue;
    if ((name === 'action' && sel.action) || (name === 'path' && pathSegments(sel).length)) continue;
    parameters.push({ name, in: 'query', required: query.required.has(name), schema });
  }
  if (o.acceptsQueryToken && !('token' in query.properties)) {
    parameters.push({
      name: 'token',
      in: 'query',
      required: false,
      description: 'The bearer token, for a client that opens this URL in a browser.',
      schema: { type: 'string' },
    });
  }

  const result: Json = {
    operationId,
    summary: o.summary,
    tags: [`${script.name}.php`],
  };
  const selectorText = describeSelector(sel, o.method, siblingKeysOf(script, o), queryFormOf(script, o));
  result.description = [o.summary.endsWith('.') ? o.summary : `${o.summary}.`, selectorText].filter(Boolean).join('\n\n');
  if (parameters.length) result.parameters = parameters;

  if (o.body) {
    const converted = b.convert(o.body, 'input', `${operationId}.body`);
    const required = objectFields(converted).required.size > 0;
    // One schema for both media types.
    const body = b.component(`${operationId}.body`, converted);
    result.requestBody = o.multipart
      ? {
          required: true,
          description: `multipart/form-data: these fields, and the file in the part \`media\` (at most ${o.multipart.maxFileBytes} bytes).`,
          content: {
            'multipart/form-data': {
              schema: {
                allOf: [body, { type: 'object', required: ['media'], properties: { media: { type: 'string', format: 'binary' } } }],
              },
            },
          },
        }
      : {
          required,
          description: 'JSON, or the same fields form-urlencoded (form values arrive as text; numbers and flags accept their text forms).',
          content: { 'application/json': { schema: body }, 'application/x-www-form-urlencoded': { schema: body } },
        };
    const recordedBody = examples?.operations[operationId]?.request?.body;
    if (recordedBody !== undefined && !o.multipart) {
      const content = (result.requestBody as Json).content as Record<string, Json>;
      content['application/json'].examples = { recorded: { summary: 'Recorded from the test suite', value: recordedBody } };
    }
  }
  const recordedQuery = examples?.operations[operationId]?.request?.query ?? {};
  for (const parameter of parameters) {
    const value = recordedQuery[parameter.name as string];
    if (value !== undefined) parameter.example = value;
  }

  const response = o.response;
  const status = String(o.status ?? 200);
  // The dispatcher sends `{success: true, ...handlerResult}` without parsing the result through the
  // schema, and the handler returns `z.input` of it: the input side is what goes on the wire.
  const payload: Json = b.convert(response, 'input', `${operationId}.response`);
  const success: Json = {
    description: 'Success: `success: true` beside the payload keys.',
    headers: RATE_LIMIT_HEADERS,
    content: { 'application/json': { schema: envelope(payload) } },
  };
  if (o.download) {
    // A file (`Download`), streamed with Content-Disposition: attachment, not the JSON envelope.
    success.description = 'Success: a file download (`Content-Disposition: attachment`), streamed.';
    success.content = Object.fromEntries(o.download.contentTypes.map((type) => [type, { schema: { type: 'string', format: 'binary' } }]));
    result['x-plaza-download'] = o.download.contentTypes;
  }
  const refusal = o.refusal;
  if (refusal) {
    // A declared refusal (`Refusal`, docs/decisions/0002) shares the 200 status with the success.
    success.description += ' A refusal answers 200 too, with `success: false` and the payload of `x-plaza-refusal`.';
    success['x-plaza-refusal'] = envelope(b.convert(refusal, 'input', `${operationId}.refusal`), false);
  }
  const recorded = examples?.operations[operationId];
  if (recorded?.response && !o.download && String(recorded.response.status) === status) {
    (success.content as Record<string, Json>)['application/json'].examples = {
      recorded: { summary: `Recorded from ${recorded.source ?? 'the test suite'}`, value: recorded.response.body },
    };
  }
  const responses: Json = { [status]: success };
  for (const [code, codes] of Object.entries(errorCodesOf(script, o, recorded))) {
    const name = RESPONSE_OF_STATUS[code];
    responses[code] = {
      $ref: `#/components/responses/${name}`,
      description: `${ERROR_RESPONSES[name].description} Codes: ${codes.map((c) => `\`${c}\``).join(', ')}.`,
    };
    result[`x-plaza-error-codes`] = { ...(result['x-plaza-error-codes'] as Json), [code]: codes };
  }
  responses.default = { $ref: '#/components/responses/Error' };
  result.responses = responses;

  const schemes: Json[] = [{ bearerAuth: [] }];
  if (o.acceptsQueryToken) schemes.push({ queryToken: [] });
  if (o.auth === 'required') result.security = schemes;
  else if (o.auth === 'optional') result.security = [{}, ...schemes];
  else result.security = [];

  result['x-rate-limit-group'] = rateLimitGroupOf(o);
  result['x-plaza-script'] = `${script.name}.php`;
  result['x-plaza-selector'] = o.select ?? {};
  result['x-plaza-query-form'] = queryFormOf(script, o);
  return result;
}

const errorSchema: Json = {
  type: 'object',
  description: 'Every failure: `error` and `message` carry the same human text; `code` is stable snake_case.',
  properties: {
    success: { const: false },
    error: { type: 'string' },
    message: { type: 'string' },
    code: {
      type: 'string',
      pattern: '^[a-z0-9_]+$',
      description:
        "Stable snake_case; every code, its statuses and meaning are in the document's `x-plaza-error-codes` (the README's table).",
    },
    details: {
      type: 'array',
      description: 'Validation failures, one per field.',
      items: { type: 'object', properties: { field: { type: 'string' }, problem: { type: 'string' } }, required: ['field', 'problem'] },
    },
  },
  required: ['success', 'error', 'message', 'code'],
};

function errorResponse(description: string, extraHeaders: Json = {}): Json {
  return {
    description,
    headers: { ...RATE_LIMIT_HEADERS, ...extraHeaders },
    content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
  };
}

/**
 * Builds the document from the same declarations the dispatcher routes with. Throws when two operations
 * would get the same operationId, or the same path key and method.
 */
export function buildOpenApiDocument(scripts: Script[], info: OpenApiInfo, examples?: RecordedExamples): object {
  const b = new DocumentBuilder();
  b.schemas.Error = errorSchema;
  const paths: Record<string, Record<string, Json>> = {};
  const ids = new Map<string, string>();
  let usesQueryToken = false;

  for (const script of scripts) {
    for (const o of script.operations) {
      const operationId = operationIdOf(script, o);
      const where = `${o.method} ${script.name}.php ${JSON.stringify(o.select ?? {})}`;
      const clash = ids.get(operationId);
      if (clash) throw new Error(`OpenAPI: operationId ${operationId} would be shared by ${clash} and ${where}`);
      ids.set(operationId, where);
      const key = pathKeyOf(script, o);
      const method = o.method.toLowerCase();
      paths[key] ??= {};
      if (paths[key][method]) throw new Error(`OpenAPI: ${o.method} ${key} would describe two operations (${where})`);
      paths[key][method] = operationObject(b, script, o, operationId, examples);
      usesQueryToken ||= Boolean(o.acceptsQueryToken);
    }
  }

  const securitySchemes: Json = {
    bearerAuth: { type: 'http', scheme: 'bearer', description: 'The opaque token returned by auth.php (`Authorization: Bearer <token>`).' },
  };
  if (usesQueryToken)
    securitySchemes.queryToken = {
      type: 'apiKey',
      in: 'query',
      name: 'token',
      description: 'The same token as `?token=`, on the operations that accept it.',
    };

  const responses: Json = {};
  for (const [name, r] of Object.entries(ERROR_RESPONSES)) {
    responses[name] =
      name === 'Unauthorized'
        ? errorResponse(r.description, {
            'WWW-Authenticate': {
              description: '`Bearer`, or `Bearer error="invalid_token"` for a token that is not (or no longer) valid.',
              schema: { type: 'string' },
            },
          })
        : name === 'TooManyRequests'
          ? errorResponse(r.description, { 'Retry-After': { $ref: '#/components/headers/Retry-After' } })
          : name === 'MethodNotAllowed'
            ? errorResponse(r.description, { Allow: { description: 'The methods the selector accepts.', schema: { type: 'string' } } })
            : errorResponse(r.description);
  }
  responses.Error = errorResponse('Any other failure (each operation lists the statuses and codes it answers).');

  return {
    openapi: '3.1.0',
    info: {
      title: info.title,
      version: info.version,
      description: [
        'Generated from the operation registry the dispatcher routes with (docs/decisions/0007).',
        "Each operation is one OpenAPI operation whose path key is a URL to call: the selector that the clients send in the query string (`?action=send`, `?path=5/messages`, `?user_id=7`) is written as path segments (`/friends.php/action/send`, `/message_groups.php/path/5/messages`, `/messages.php/user_id/7`), which the server answers exactly as the query form, named by each operation's `x-plaza-query-form` (docs/decisions/0170).",
        'Every script is also served under `/v1/` instead of `/api/v1/`. Every success is `{"success": true, ...payload}`; every failure is the `Error` schema.',
        'Every response carries `X-RateLimit-Limit`, `X-RateLimit-Remaining` and `X-RateLimit-Reset`; the limit group of each operation is its `x-rate-limit-group`.',
        "`index.php` lists the same operations in Plaza's own compact form.",
      ].join('\n\n'),
    },
    servers: [{ url: `${info.serverUrl.replace(/\/+$/, '')}/api/v1` }],
    'x-plaza-error-codes': errorCodeTable(),
    tags: scripts.map((s) => ({ name: `${s.name}.php` })),
    paths,
    components: {
      schemas: b.schemas,
      responses,
      headers: {
        'X-RateLimit-Limit': {
          description: "Requests allowed per window for this operation's group.",
          schema: { type: 'integer', minimum: 0 },
        },
        'X-RateLimit-Remaining': { description: 'Requests left in the current window.', schema: { type: 'integer', minimum: 0 } },
        'X-RateLimit-Reset': { description: 'When the window resets, in unix seconds.', schema: { type: 'integer', minimum: 0 } },
        'Retry-After': { description: 'Seconds to wait before retrying.', required: true, schema: { type: 'integer', minimum: 0 } },
      },
      securitySchemes,
    },
  };
}
