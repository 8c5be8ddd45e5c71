import { createHash, randomUUID } from 'node:crypto';
import Router from '@koa/router';
import {
  type Actor,
  DomainError,
  Forbidden,
  NotFound,
  type RateLimitDecision,
  RateLimited,
  type RateLimiter,
  type RateLimitGroup,
  type Session,
  Unauthenticated,
} from '@plaza/domain';
import Koa, { type Context } from 'koa';
import { HttpMethodEnum, koaBody } from 'koa-body';
import { clientIp, compileProxyTrust, isSecure, type ProxyPolicy } from './http/client-info.js';
import { cors } from './http/cors.js';
import {
  assertUnambiguous,
  MethodNotAllowed,
  parseInput,
  rateLimitGroupBeforeBody,
  rateLimitGroupOf,
  resolveOperation,
} from './http/dispatcher.js';
import { bodyReadError, toErrorResponse } from './http/errors.js';
import { accessLogger, redactUrl, type Logger } from './http/logging.js';
import { type AnyOperation, Download, Refusal, type Script } from './http/operation.js';
import { Readable } from 'node:stream';
import { z } from 'zod';
import type { HealthCheck } from './http/health.js';
import { indexScript } from './scripts/index-script.js';
import { registerApiDocs } from './http/api-docs.js';
import { RefusedAddresses } from './http/refused-addresses.js';
import { type HttpMount, mountsMiddleware } from './http/mount.js';
import { readMultipart } from './http/multipart.js';
import { JSON_BODY_TYPES, unreadBodyRefusal } from './http/body-types.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { answerJson } from './http/json-body.js';
import { metricsEndpoint, type MetricsEndpoint } from './monitoring/metrics-endpoint.js';
import type { RequestMetrics, RequestSeries } from './monitoring/metrics.js';
import { selectorPaths } from './http/selector-paths.js';

export interface HttpOptions extends ProxyPolicy {
  corsOrigins: string[];
  requireHttps: boolean;
  /** Largest JSON or form body accepted. */
  bodyLimit: string;
  /**
   * Check every success payload against its operation's response schema and fail the request when
   * they differ. The test servers turn it on, so a presenter that drifts from the contract fails the
   * suite; production skips the cost.
   */
  validateResponses?: boolean;
  /** Public base URL (no trailing slash), for the `servers` of /api/v1/openapi.json. */
  publicUrl?: string;
  /** Where multipart uploads wait while a request runs (each request its own directory, removed after); the system's temporary directory by default. */
  uploadTmpDir?: string;
}

export interface HttpDependencies {
  /** Every script the modules contributed; index.php is added here, listing them all. */
  scripts: Script[];
  /** Turns a bearer token into the acting user (and what the lookup knows of a ban), or fails with Unauthenticated. */
  authenticate(token: string): Promise<Session>;
  /**
   * Refuses an authenticated account that may not use the API now (a banned one: Forbidden `banned`;
   * a suspended one: Forbidden `suspended`), for every operation that does not declare `allowBanned`.
   * Not called for a session whose lookup said neither is the case (`banned` and `suspended` false).
   */
  admit?(actor: Actor): Promise<void>;
  health: HealthCheck;
  /** Browser pages served beside the scripts (the admin panel), mounted on the same router. */
  pages?: Pages[];
  rateLimiter: RateLimiter;
  logger: Logger;
  options: HttpOptions;
  /** Handlers of non-script URLs (federation), given the raw request before any body parsing. */
  mounts?: HttpMount[];
  /** GET /metrics and the request counters behind it (docs/decisions/0103); none when it is off. */
  metrics?: MetricsEndpoint | null;
  /**
   * Runs each operation's handler, told its method and user: where the database decides which reads
   * may go to a read replica (docs/decisions/0141). Without it the handler runs as it is.
   */
  runOperation?<T>(operation: { method: string; userId: number | null }, work: () => Promise<T>): Promise<T>;
}

/** Browser pages (the admin panel): they add their routes to the app's router with the app's request helpers. */
export interface Pages {
  mount(router: Router, kit: PageKit): void;
}

export interface PageKit {
  /** The Koa app (koa-session extends its context). */
  app: Koa;
  /** True over TLS, or when a trusted proxy says the client spoke HTTPS (API_TRUSTED_PROXIES). */
  isSecure(ctx: Context): boolean;
  /** Counts the request in `group`: per user once `ctx.state.actor` is set, else per client address; throws RateLimited past the limit. */
  count(ctx: Context, group: RateLimitGroup): Promise<void>;
  /** Counts a login attempt against the account `login` names (as typed), as auth.php's logins do; throws RateLimited past the limit. */
  countLogin(login: string): Promise<void>;
  /** Refuses an account that may not use Plaza now (banned or suspended), as the scripts do. */
  admit?(actor: Actor): Promise<void>;
}

export const API_PREFIXES = ['/api/v1', '/v1'];

// The clients send DELETE with JSON bodies (pages.php, reports.php, fediverse unfollow).
const PARSED_METHODS = [HttpMethodEnum.POST, HttpMethodEnum.PUT, HttpMethodEnum.PATCH, HttpMethodEnum.DELETE];

interface PlazaState {
  requestId: string;
  ip: string;
  rateLimit?: RateLimitDecision;
  actor?: Actor | null;
  /** Where the request is counted in /metrics, once its script and operation are known. */
  series?: RequestSeries;
}

/** Longest user agent a log line carries: enough to tell clients apart, too short to flood a log. */
const USER_AGENT_LOGGED = 200;

/**
 * The series of a request that reached no script: a few fixed categories, never the path itself, so
 * that scanning random URLs cannot grow the metrics.
 */
function seriesOfPath(requests: RequestMetrics, path: string): RequestSeries {
  const category =
    path === '/metrics'
      ? '(metrics)'
      : path.startsWith('/admin')
        ? '(admin)'
        : path.startsWith('/health')
          ? '(health)'
          : path.startsWith('/uploads/')
            ? '(uploads)'
            : '(other)';
  return requests.of(category, '(none)');
}

export function createHttpApp(deps: HttpDependencies): { app: Koa; scripts: Script[] } {
  const { logger, options, rateLimiter } = deps;
  const app = new Koa();
  const scripts: Script[] = [];
  scripts.push(
    indexScript(
      () => scripts,
      () => Object.assign({}, ...(deps.mounts ?? []).map((m) => m.publicPaths ?? {})),
    ),
    ...deps.scripts,
  );
  const trust = compileProxyTrust(options);
  const refused = new RefusedAddresses();
  const requestMetrics = deps.metrics?.metrics.requests;
  const accessLog = accessLogger(logger);

  /** Counts the request in `group`: per user once authenticated, else per address, remembering refused addresses. */
  const count = async (state: PlazaState, group: RateLimitGroup): Promise<void> => {
    if (state.actor) {
      state.rateLimit = await rateLimiter.consume(group, `user:${state.actor.userId}`);
      return;
    }
    try {
      state.rateLimit = await rateLimiter.consume(group, `ip:${state.ip}`);
    } catch (error) {
      if (error instanceof RateLimited) refused.remember(group, state.ip, error);
      throw error;
    }
  };

  // Outermost: request id, access log, error body, rate-limit headers on every response.
  app.use(async (ctx, next) => {
    const started = process.hrtime.bigint();
    const incoming = ctx.get('X-Request-Id');
    const state = ctx.state as PlazaState;
    state.requestId = /^[\w.-]{1,64}$/.test(incoming) ? incoming : randomUUID();
    state.ip = clientIp(ctx, trust);
    ctx.set('X-Request-Id', state.requestId);
    // Every answer is JSON, HTML or an asset of a declared type: never let a browser guess another.
    ctx.set('X-Content-Type-Options', 'nosniff');
    try {
      await next();
      if (ctx.status === 404 && ctx.body === undefined) throw new NotFound('Unknown endpoint', 'unknown_endpoint');
    } catch (error) {
      const response = toErrorResponse(error instanceof MethodNotAllowed ? methodError(ctx, error) : error);
      if (response.internal) logger.error({ err: error, req_id: state.requestId }, 'request failed');
      ctx.status = response.status;
      ctx.body = response.body;
      for (const [k, v] of Object.entries(response.headers)) ctx.set(k, v);
      const decision = error instanceof RateLimited ? error.decision : undefined;
      if (decision) state.rateLimit = decision;
    } finally {
      const rl = state.rateLimit;
      if (rl) {
        ctx.set('X-RateLimit-Limit', String(rl.limit));
        ctx.set('X-RateLimit-Remaining', String(rl.remaining));
        ctx.set('X-RateLimit-Reset', String(rl.reset));
      }
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      if (requestMetrics) (state.series ?? seriesOfPath(requestMetrics, ctx.path)).observe(ctx.status, ms / 1000);
      accessLog.info(
        {
          req_id: state.requestId,
          method: ctx.method,
          url: redactUrl(ctx.originalUrl),
          status: ctx.status,
          ms,
          user_id: state.actor?.userId ?? null,
          // The address the trusted-proxy rule resolved (the one rate limits count), and the client's own word.
          ip: state.ip,
          user_agent: ctx.get('User-Agent').slice(0, USER_AGENT_LOGGED),
        },
        'request',
      );
    }
  });

  // `<script>.php/action/send` is `<script>.php?action=send` for everything below (docs/decisions/0170).
  app.use(selectorPaths(() => scripts.map((s) => s.name), API_PREFIXES));

  app.use(cors(options.corsOrigins));

  app.use(async (ctx, next) => {
    if (options.requireHttps && !isSecure(ctx, trust)) {
      throw new Forbidden('HTTPS is required: send this request over https://', 'https_required');
    }
    await next();
  });

  // Prometheus's scrape: not rate-limited (like the health checks), except a wrong token, counted by address.
  if (deps.metrics) app.use(metricsEndpoint(deps.metrics, (ctx) => count(ctx.state as PlazaState, 'default')));

  // Federation (WebFinger, actor documents, inboxes) reads its own raw bodies: before the parser.
  app.use(mountsMiddleware(deps.mounts ?? [], (ctx, group) => count(ctx.state as PlazaState, group)));

  // Bodies are read last, and only from clients the rate limiter may still serve. A request is counted
  // once its operation is known (scriptHandler), since its group depends on the operation, which a body
  // `action` may choose: so it cannot be counted before its body is read. What can be known before is
  // the group its path and query select (`groupBeforeBody`), and whether its address was already
  // refused (429) in that group in this window; for a request that would be counted by address, i.e.
  // without a valid token, that refusal is answered here and the body never read. A refusal in another
  // group is no reason to refuse it, and a request whose group a body `action` chooses is read and
  // counted (docs/decisions/0102). A valid token passes, because its requests are counted per user and
  // many users may share one address (an auth: 'none' operation such as login still counts it by
  // address, after reading).
  // A body that cannot be read (malformed JSON, too large, bad Content-Encoding) is counted by address
  // in `default`, like an unknown script, so that refusals are limited too and carry the headers.
  const parseBody = koaBody({
    json: true,
    jsonTypes: JSON_BODY_TYPES,
    urlencoded: true,
    text: false,
    multipart: false,
    jsonLimit: options.bodyLimit,
    formLimit: options.bodyLimit,
    parsedMethods: PARSED_METHODS,
    jsonStrict: false,
  });
  // Multipart bodies only for the scripts that declare them (upload.php), streamed to disk (http/multipart.ts).
  const multipartPaths = multipartRoutes(scripts);
  const uploadTmpDir = options.uploadTmpDir ?? join(tmpdir(), 'plaza-uploads');
  const router = new Router();
  const scriptsByPath = new Map<string, Script>(
    scripts.flatMap((script) => API_PREFIXES.map((prefix) => [`${prefix}/${script.name}.php`, script] as const)),
  );
  /** The group a request counts in as far as its path and query tell: null for a page, a mount or a body-chosen action. */
  const groupBeforeBody = (ctx: Context): RateLimitGroup | null => {
    const script = scriptsByPath.get(ctx.path);
    if (script) return rateLimitGroupBeforeBody(script, { method: ctx.method, query: ctx.query });
    // No route at all: the unknown-URL answer below counts it in `default`. Pages count for themselves.
    return router.match(ctx.path, ctx.method).route ? null : 'default';
  };
  app.use(async (ctx, next) => {
    const state = ctx.state as PlazaState;
    const group = bodyFollows(ctx) && refused.knows(state.ip) ? groupBeforeBody(ctx) : null;
    const refusal = group ? refused.refusalOf(group, state.ip) : null;
    if (refusal && !(await hasValidToken(ctx, deps))) throw refusal;
    const multipart = multipartPaths.get(ctx.path);
    if (multipart && ctx.method === 'POST' && ctx.is('multipart/form-data')) {
      // Up to 100 MB go to disk before the handler runs: only for someone who may upload at all.
      if (multipart.auth === 'required' && !(await hasValidToken(ctx, deps))) {
        discardBody(ctx);
        await count(state, 'default');
        throw new Unauthenticated('Authentication required: send Authorization: Bearer <token>');
      }
      let read = false;
      try {
        await readMultipart(ctx, { tmpDir: uploadTmpDir, maxFileBytes: multipart.maxFileBytes }, async () => {
          read = true;
          await next();
        });
      } catch (error) {
        if (!read && error instanceof DomainError) await count(state, 'default');
        throw error;
      }
      return;
    }
    try {
      await parseBody(ctx, async () => {});
    } catch (error) {
      const answer = bodyReadError(error, ctx.get('Content-Encoding'));
      if (answer instanceof DomainError) await count(state, 'default');
      throw answer;
    }
    await next();
  });

  for (const script of scripts) assertUnambiguous(script); // Refuse to start rather than let order decide.
  for (const script of scripts) {
    const handler = scriptHandler(script, deps, count);
    for (const prefix of API_PREFIXES) router.all(`${prefix}/${script.name}.php`, handler);
  }
  registerApiDocs(router, () => scripts, { publicUrl: options.publicUrl, prefixes: API_PREFIXES });
  const kit: PageKit = {
    app,
    isSecure: (ctx) => isSecure(ctx, trust),
    count: (ctx, group) => count(ctx.state as PlazaState, group),
    countLogin: async (login) => {
      await rateLimiter.consumeLogin(accountKey(login));
    },
    admit: deps.admit,
  };
  for (const pages of deps.pages ?? []) pages.mount(router, kit);
  router.get('/health-public.php', async (ctx) => {
    const health = await deps.health.check();
    ctx.status = health.status === 'ok' ? 200 : 503;
    ctx.body = { success: health.status === 'ok', ...health };
  });
  app.use(router.routes());

  // Every other URL: unknown script or path, still rate-limited by address so the headers are present.
  app.use(async (ctx) => {
    await count(ctx.state as PlazaState, 'default');
    const script = /\/([\w-]+)\.php$/.exec(ctx.path)?.[1];
    throw new NotFound(script ? `Unknown script ${script}.php` : 'Unknown endpoint', script ? 'unknown_script' : 'unknown_endpoint');
  });

  return { app, scripts };
}

/** The paths (`/api/v1/upload.php`, `/v1/upload.php`) of scripts with an operation that takes multipart, and its limit. */
function multipartRoutes(scripts: Script[]): Map<string, { maxFileBytes: number; auth: AnyOperation['auth'] }> {
  const routes = new Map<string, { maxFileBytes: number; auth: AnyOperation['auth'] }>();
  for (const script of scripts) {
    const declaring = script.operations.find((o) => o.multipart);
    if (declaring?.multipart)
      for (const prefix of API_PREFIXES) routes.set(`${prefix}/${script.name}.php`, { ...declaring.multipart, auth: declaring.auth });
  }
  return routes;
}

/** Reads and drops a body that will not be used, so that the client gets the answer (see http/multipart.ts). */
function discardBody(ctx: Context): void {
  if (!ctx.req.readableEnded) ctx.req.resume();
}

function methodError(ctx: Context, error: MethodNotAllowed) {
  ctx.set('Allow', error.allow.join(', '));
  return Object.assign(new Error(error.message), { status: 405, expose: true });
}

function assertResponseShape(script: Script, operation: AnyOperation, payload: unknown, schema: z.ZodType): void {
  const checked = schema.safeParse(payload);
  if (checked.success) return;
  const where = `${operation.method} ${script.name}.php ${JSON.stringify(operation.select ?? {})}`;
  const which = schema === operation.response ? 'response' : 'refusal';
  throw new Error(`${which} of ${where} breaks its schema: ${z.prettifyError(checked.error)}`);
}

function bearerToken(ctx: Context): string | null {
  const header = ctx.get('Authorization');
  const m = /^Bearer\s+(\S+)$/i.exec(header);
  return m ? m[1] : null;
}

/** Whether the request carries a bearer token that authenticates someone (a database outage still throws). */
async function hasValidToken(ctx: Context, deps: HttpDependencies): Promise<boolean> {
  const token = bearerToken(ctx);
  if (!token) return false;
  try {
    await deps.authenticate(token);
    return true;
  } catch (error) {
    if (error instanceof Unauthenticated) return false;
    throw error;
  }
}

/** Whether koa-body is about to read bytes: a method it parses, with a length or a transfer encoding. */
function bodyFollows(ctx: Context): boolean {
  if (!(PARSED_METHODS as string[]).includes(ctx.method)) return false;
  return ctx.get('Transfer-Encoding') !== '' || (ctx.get('Content-Length') !== '' && ctx.get('Content-Length') !== '0');
}

/** Whether the operation serves a banned account this request (`allowBanned`). */
function allowsBanned(operation: AnyOperation, query: Record<string, string | string[] | undefined>): boolean {
  const allow = operation.allowBanned;
  if (typeof allow !== 'function') return allow === true;
  return allow(Object.fromEntries(Object.entries(query).map(([k, v]) => [k, Array.isArray(v) ? v[0] : v])));
}

type Count = (state: PlazaState, group: RateLimitGroup) => Promise<void>;

/**
 * The per-account counter's name for a login as typed: trimmed and lower-cased as the account lookup
 * matches it, then digested, so that an unknown login counts exactly like a known one and no e-mail
 * address is stored among the counters.
 */
function accountKey(login: unknown): string {
  return createHash('sha256')
    .update(
      String(login ?? '')
        .trim()
        .toLowerCase(),
    )
    .digest('base64url');
}

function scriptHandler(script: Script, deps: HttpDependencies, count: Count) {
  return async (ctx: Context) => {
    const state = ctx.state as PlazaState;
    const raw = { method: ctx.method, query: ctx.query, body: (ctx.request as { body?: unknown }).body };
    let resolved;
    try {
      resolved = resolveOperation(script, raw);
    } catch (error) {
      state.series = deps.metrics?.metrics.requests.of(script.name, '(unresolved)');
      await count(state, 'default');
      // A body of a type not read cannot have named the operation: say so rather than "unknown action".
      throw (
        unreadBodyRefusal(
          ctx,
          script.name,
          script.operations.some((o) => o.multipart),
        ) ?? error
      );
    }
    const { operation } = resolved;
    state.series = deps.metrics?.metrics.requests.ofDeclared(script.name, operation);

    // Authenticate first so that the limit is counted per user; a bad token still counts by address.
    let session: Session | null = null;
    let authError: unknown = null;
    const token = bearerToken(ctx) ?? (operation.acceptsQueryToken && typeof ctx.query.token === 'string' ? ctx.query.token : null);
    if (token && operation.auth !== 'none') {
      try {
        session = await deps.authenticate(token);
      } catch (error) {
        authError = error;
      }
    }
    const actor = session?.actor ?? null;
    state.actor = actor;
    await count(state, rateLimitGroupOf(operation));
    if (authError) throw authError;
    if (operation.auth === 'required' && !actor) throw new Unauthenticated('Authentication required: send Authorization: Bearer <token>');
    // Admission asks only when the session lookup could not say the account is neither banned nor suspended.
    const admitted = session?.banned === false && session.suspended === false;
    if (actor && deps.admit && !admitted && !allowsBanned(operation, ctx.query)) await deps.admit(actor);

    const unread = operation.body ? unreadBodyRefusal(ctx, script.name, operation.multipart !== undefined) : null;
    if (unread) throw unread;
    const { query, body } = parseInput(resolved, raw);
    if (operation.limitPerAccount)
      await deps.rateLimiter.consumeLogin(accountKey((body as Record<string, unknown>)[operation.limitPerAccount]));
    const handle = () =>
      operation.handle({
        actor: actor as Actor,
        query: query as never,
        body: body as never,
        request: { id: state.requestId, ip: state.ip, headers: ctx.headers },
        koa: ctx,
      });
    const result = await (deps.runOperation
      ? deps.runOperation({ method: operation.method, userId: actor?.userId ?? null }, handle)
      : handle());
    if (result instanceof Download) {
      if (!operation.download) throw new Error(`${operation.method} ${script.name}.php answered a file without declaring download`);
      ctx.status = 200;
      ctx.set('Content-Type', result.contentType);
      ctx.set('Content-Disposition', `attachment; filename="${result.filename.replace(/[^\w.-]/g, '_')}"`);
      ctx.set('Cache-Control', 'no-store');
      ctx.body = Readable.from(result.body as AsyncIterable<string | Uint8Array>);
      return;
    }
    if (result instanceof Refusal) {
      // A declared 200 failure (docs/decisions/0002): always a 200, whatever the success status.
      if (!operation.refusal) throw new Error(`${operation.method} ${script.name}.php refused without declaring a refusal schema`);
      if (deps.options.validateResponses) assertResponseShape(script, operation, result.payload, operation.refusal);
      ctx.status = 200;
      ctx.body = { success: false, ...result.payload };
      return;
    }
    if (deps.options.validateResponses) assertResponseShape(script, operation, result, operation.response);
    ctx.status = operation.status ?? 200;
    // Serialised here, each list once though the answer holds it under `data.<key>` and `<key>`.
    ctx.type = 'application/json; charset=utf-8';
    ctx.body = answerJson({ success: true, ...(result as Record<string, unknown>) });
  };
}
