import { appendFileSync, mkdirSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { operationIdOf, type Script } from '@plaza/adapters-http';
import { expect } from 'vitest';
import { resolveOperation } from '../../packages/adapters-http/src/http/dispatcher.js';
import { selectorPairs } from '../../packages/adapters-http/src/http/selector-paths.js';
import { ApiClient, type ApiResponse, type RequestOptions } from './client.js';

/**
 * Records the examples of the OpenAPI document from the suite's own calls (docs/decisions/0171). With
 * `PLAZA_RECORD_OPENAPI=<directory>` set, the test server's `api` client notes, for every request that
 * reaches an operation, the first success (request and answer, normalised) and every failure's status and
 * `code`, as JSON lines in a file of its own process under that directory; `npm run openapi:examples`
 * runs the suites so and merges the lines into packages/adapters-http/src/http/openapi-examples.json.
 * Unset, nothing is recorded and the client is the plain one.
 */

export const RECORD_ENV = 'PLAZA_RECORD_OPENAPI';

type Json = Record<string, unknown>;

const TIMESTAMP = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:?\d{2})$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
/** Keys whose values are secrets or single-use: written as a fixed stand-in. */
const SECRET_KEY = /(^|_)(token|tokens|secret|credential|password|signature|otpauth|recovery_codes|code_hash|url_token)($|_)/i;
/** The test mothers' generated names (`u12_ab3d9f`), so that a new recording does not rewrite every example. */
const GENERATED_NAME = /\bu\d+_[a-z0-9]{6}\b/gi;
/** Longest list kept in an example: enough to show an item, short enough to read. */
const MAX_ITEMS = 2;

function normaliseString(key: string, value: string): string {
  if (SECRET_KEY.test(key) && /password/i.test(key) && value.length > 0) return 'correct horse battery';
  // A secret is one word of 12 or more characters: `token_type: "Bearer"` is not one.
  if (SECRET_KEY.test(key) && /^[\x21-\x7e]{12,}$/.test(value)) {
    if (/otpauth/i.test(key) || value.startsWith('otpauth://')) return 'otpauth://totp/Plaza:alice?secret=JBSWY3DPEHPK3PXP&issuer=Plaza';
    return `example-${key.toLowerCase().replace(/[^a-z]+/g, '-')}`;
  }
  if (TIMESTAMP.test(value)) return '2026-01-01 12:00:00';
  if (ISO_TIME.test(value)) return '2026-01-01T12:00:00.000Z';
  if (DATE.test(value) && /date|day|birth/i.test(key)) return '2026-01-01';
  return value.replace(GENERATED_NAME, 'alice');
}

/** A copy with secrets, times and generated names replaced and lists cut to `MAX_ITEMS`. */
export function normalise(value: unknown, key = ''): unknown {
  if (typeof value === 'string') return normaliseString(key, value);
  if (Array.isArray(value)) {
    if (SECRET_KEY.test(key)) return value.slice(0, MAX_ITEMS).map(() => `example-${key.toLowerCase().replace(/[^a-z]+/g, '-')}`);
    return value.slice(0, MAX_ITEMS).map((v) => normalise(v, key));
  }
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value as Json).map(([k, v]) => [k, normalise(v, k)]));
  }
  return value;
}

/** The script and query of an API URL (`/api/v1/x.php?...`, `/v1/x.php/action/y`), or null for other URLs. */
function apiRequest(url: URL): { script: string; query: Record<string, string> } | null {
  const m = /^\/(?:api\/)?v1\/([\w-]+)\.php(?:\/(.+))?$/.exec(url.pathname);
  if (!m) return null;
  const query: Record<string, string> = {};
  for (const [k, v] of url.searchParams) query[k] ??= v;
  if (m[2]) {
    const pairs = selectorPairs(m[2]);
    if (!pairs) return null;
    for (const [k, v] of pairs) query[k] = v;
  }
  return { script: m[1], query };
}

let sequence = 0;
const recorded = new Set<string>();
const failures = new Set<string>();

function testFile(): string {
  let path: string | undefined;
  try {
    path = expect.getState().testPath;
  } catch {
    path = undefined;
  }
  return path ? relative(process.cwd(), path) : '(outside a test)';
}

class Recorder {
  private readonly file: string;
  constructor(
    directory: string,
    private readonly scripts: () => Script[],
  ) {
    mkdirSync(directory, { recursive: true });
    this.file = join(directory, `${process.pid}-${Date.now()}-${basename(testFile()).replace(/\W+/g, '_')}.jsonl`);
  }

  note(method: string, url: URL, body: unknown, options: RequestOptions, res: ApiResponse): void {
    const where = apiRequest(url);
    if (!where || options.raw !== undefined || (options.headers && Object.keys(options.headers).some((h) => /content-type/i.test(h))))
      return;
    let operationId: string;
    let script: Script | undefined;
    if (where.script === 'index') operationId = 'index.get';
    else {
      script = this.scripts().find((s) => s.name === where.script);
      if (!script) return;
      try {
        const resolved = resolveOperation(script, { method, query: where.query, body: method === 'GET' ? undefined : body });
        operationId = operationIdOf(script, resolved.operation);
      } catch {
        return;
      }
    }
    const answer = res.body as Json | null;
    if (!answer || typeof answer !== 'object') return;
    if (res.status < 300 && answer.success === true) {
      if (recorded.has(operationId)) return;
      recorded.add(operationId);
      const request: Json = {};
      const query = { ...where.query };
      delete query.action;
      delete query.path;
      if (Object.keys(query).length) request.query = normalise(query);
      if (body !== undefined && method !== 'GET' && method !== 'HEAD') request.body = normalise(body);
      this.write({
        kind: 'example',
        operationId,
        source: testFile(),
        sequence: sequence++,
        request,
        response: { status: res.status, body: normalise(answer) },
      });
      return;
    }
    const code = typeof answer.code === 'string' ? answer.code : null;
    if (res.status < 400 || !code) return;
    const key = `${operationId} ${res.status} ${code}`;
    if (failures.has(key)) return;
    failures.add(key);
    this.write({ kind: 'failure', operationId, status: res.status, code });
  }

  private write(line: Json): void {
    appendFileSync(this.file, `${JSON.stringify(line)}\n`);
  }
}

/** The test server's client: recording when `PLAZA_RECORD_OPENAPI` names a directory, plain otherwise. */
export function testApiClient(baseUrl: string, scripts: () => Script[]): ApiClient {
  const directory = process.env[RECORD_ENV];
  if (!directory) return new ApiClient(baseUrl);
  const recorder = new Recorder(directory, scripts);
  return new (class extends ApiClient {
    override async request<T = any>(method: string, path: string, body?: unknown, options: RequestOptions = {}): Promise<ApiResponse<T>> {
      const res = await super.request<T>(method, path, body, options);
      const url = new URL(`${this.baseUrl}${path.startsWith('/') ? path : `/api/v1/${path}`}`);
      try {
        recorder.note(method.toUpperCase(), url, body, options, res);
      } catch {
        /* a recording problem never fails the test that made the call */
      }
      return res;
    }
  })(baseUrl);
}
