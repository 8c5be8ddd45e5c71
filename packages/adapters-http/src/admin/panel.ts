import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type Router from '@koa/router';
import {
  type Actor,
  type Clock,
  Conflict,
  Forbidden,
  Invalid,
  NotFound,
  pageRequest,
  RateLimited,
  toTimestamp,
  Unauthenticated,
} from '@plaza/domain';
import {
  type AdminAccountService,
  type AdminRoleService,
  type AdminSessionActor,
  type AdminSessionStore,
  coturnBlock,
  type MediaServerSettingsService,
  type TurnSettingsService,
} from '@plaza/domain/admin';
import { Eta } from 'eta';
import type { Context, Middleware, Next } from 'koa';
import createSession from 'koa-session';
import type { PageKit, Pages } from '../app.js';
import { toErrorResponse } from '../http/errors.js';
import type { AdminKit, AdminNavLink, AdminSection } from './section.js';

/**
 * The admin panel (spec "Admin panel (browser pages)", docs/decisions/0060): server-rendered pages,
 * usable without JavaScript, one stylesheet served from here. Sessions are koa-session with the
 * store in the database (only a hash of the cookie's key is stored); every form carries a koa-csrf
 * token; templates are Eta with escaping on.
 */
export interface AdminPanelServices {
  accounts: AdminAccountService;
  roles: AdminRoleService;
  media: MediaServerSettingsService;
  turn: TurnSettingsService;
  sessions: AdminSessionStore;
  clock: Clock;
  /** Shown in titles: the instance's host name. */
  instanceName: string;
  /** The parts of the panel declared in files of their own (see AdminSection). */
  sections?: AdminSection[];
}

export const ADMIN_SESSION_COOKIE = 'plaza_admin';
/** A signed-in session lasts this long; an anonymous one (the sign-in form's CSRF secret) one hour. */
const SIGNED_IN_MS = 8 * 3600_000;
const ANONYMOUS_MS = 3600_000;
const ADMIN_PATHS = ['/admin.php', '/api/v1/admin.php', '/v1/admin.php'];

// The same folder from src/admin (tests) and dist/admin (built server): templates are not compiled.
const TEMPLATES = fileURLToPath(new URL('../../src/admin/templates/', import.meta.url));
const STYLESHEET = readFileSync(`${TEMPLATES}admin.css`);
const STYLESHEET_ETAG = `"${createHash('sha256').update(STYLESHEET).digest('base64url').slice(0, 16)}"`;

/** koa-csrf (CommonJS, untyped): the secret lives in the session, the token in each form's `_csrf`. */
const CSRF = createRequire(import.meta.url)('koa-csrf') as (options: { errorHandler: (ctx: Context) => unknown }) => Middleware;

/** Same-origin stylesheet only: no script runs on these pages, no form posts elsewhere, no framing. */
const PAGE_CSP = "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

interface SessionData {
  /** Hash of the access token the browser session rides on (set once signed in). */
  t?: string;
  /** koa-csrf's secret. */
  secret?: string;
  maxAge?: number | 'session';
  regenerate(): Promise<void>;
}

interface PanelState {
  admin?: AdminSessionActor | null;
  actor?: Actor | null;
  _csrf?: string;
}

const sessionOf = (ctx: Context) => (ctx as unknown as { session: SessionData | null }).session;
const stateOf = (ctx: Context) => ctx.state as PanelState;
const hashKey = (key: string) => createHash('sha256').update(key).digest('hex');
const field = (ctx: Context, name: string, max = 500): string => {
  const v = (ctx.request as { body?: Record<string, unknown> }).body?.[name];
  return typeof v === 'string' ? v.slice(0, max) : '';
};
const queryOf = (ctx: Context, name: string): string => {
  const v = ctx.query[name];
  return typeof v === 'string' ? v : '';
};

/** Where a sign-in may send the browser back to: one of the panel's own pages, nowhere else. */
function safeNext(next: string): string {
  return /^\/(admin\/[a-z_]+\.php|(api\/v1\/|v1\/)?admin\.php)(\?[\w=&%+.-]{0,200})?$/.test(next) ? next : '/admin/tokens.php';
}

/** `YYYY-MM-DD HH:MM:SS` (UTC) as the pages show it. */
const shown = (t: string | null) => (t ? `${t.slice(0, 16)} UTC` : '—');

export function adminPanel(services: AdminPanelServices): Pages {
  const eta = new Eta({ views: TEMPLATES, autoEscape: true, cache: true });
  const { accounts, roles, media, turn, sessions, clock } = services;
  const sections = services.sections ?? [];
  const sectionLinks: AdminNavLink[] = sections.flatMap((section) => section.nav);

  const render = (ctx: Context, template: string, data: Record<string, unknown>, status = 200) => {
    const state = stateOf(ctx);
    ctx.status = status;
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = eta.render(template, {
      ...data,
      csrf: state._csrf ?? '',
      me: state.admin?.actor ?? null,
      links: state.admin ? sectionLinks.filter((link) => link.shownTo(state.admin!.actor)).map(({ href, label }) => ({ href, label })) : [],
      instance: services.instanceName,
      path: ctx.path,
      shown,
    });
  };

  const redirect = (ctx: Context, to: string) => {
    ctx.status = 303;
    ctx.redirect(to);
  };

  /** The signed-in user, or a redirect to the sign-in page (null). A banned account gets the 403 page. */
  const signedIn = async (ctx: Context, kit: PageKit): Promise<AdminSessionActor | null> => {
    const admin = stateOf(ctx).admin;
    if (!admin) {
      redirect(ctx, `/admin/login.php?next=${encodeURIComponent(ctx.path + (ctx.querystring ? `?${ctx.querystring}` : ''))}`);
      return null;
    }
    if (kit.admit) await kit.admit(admin.actor);
    return admin;
  };

  const store = {
    async get(key: string) {
      const data = await sessions.get(hashKey(key), toTimestamp(clock.now()));
      return data === null ? undefined : JSON.parse(data);
    },
    async set(key: string, sess: unknown, maxAge: number) {
      const ms = typeof maxAge === 'number' && Number.isFinite(maxAge) ? maxAge : SIGNED_IN_MS;
      await sessions.put(hashKey(key), JSON.stringify(sess), toTimestamp(new Date(clock.now().getTime() + ms)));
    },
    async destroy(key: string) {
      await sessions.delete(hashKey(key));
    },
  };

  return {
    mount(router: Router, kit: PageKit) {
      const session = createSession(
        {
          key: ADMIN_SESSION_COOKIE,
          maxAge: ANONYMOUS_MS,
          httpOnly: true,
          sameSite: 'strict',
          // The cookie holds a random key only; what it opens lives in the database.
          signed: false,
          overwrite: true,
          rolling: false,
          renew: false,
          store,
          genid: () => randomBytes(32).toString('base64url'),
        } as never,
        kit.app,
      );
      const csrf = CSRF({
        errorHandler: () => {
          throw new Forbidden('This form has expired or did not come from this site: reload the page and send it again', 'csrf_invalid');
        },
      });

      /** HTML error pages; what the server failed at itself goes to the app's handler (logged, JSON). */
      const errors: Middleware = async (ctx, next) => {
        ctx.set('Content-Security-Policy', PAGE_CSP);
        ctx.set('Cache-Control', 'no-store');
        ctx.set('Referrer-Policy', 'same-origin');
        ctx.set('X-Frame-Options', 'DENY');
        try {
          await next();
        } catch (error) {
          const response = toErrorResponse(error);
          if (response.internal) throw error;
          // The app's outer middleware writes the X-RateLimit-* headers from this.
          if (error instanceof RateLimited) (ctx.state as { rateLimit?: unknown }).rateLimit = error.decision;
          for (const [k, v] of Object.entries(response.headers)) ctx.set(k, v);
          render(
            ctx,
            'error',
            { title: titleOf(response.status), message: response.body.message, code: response.body.code },
            response.status,
          );
        }
      };

      /** Secure cookies under HTTPS, also behind a trusted TLS-terminating proxy. */
      const transport: Middleware = async (ctx, next) => {
        const secure = kit.isSecure(ctx);
        (ctx.cookies as { secure?: boolean }).secure = secure;
        (ctx as unknown as { sessionOptions: { secure?: boolean } }).sessionOptions.secure = secure;
        await next();
      };

      /** Resumes the signed-in user from the session, and counts the request (per user once known). */
      const resume: Middleware = async (ctx, next) => {
        const s = sessionOf(ctx);
        let admin: AdminSessionActor | null = null;
        if (s && typeof s.t === 'string') {
          admin = await accounts.resume(s.t);
          if (!admin) delete s.t;
        }
        stateOf(ctx).admin = admin;
        stateOf(ctx).actor = admin?.actor ?? null;
        const signingIn = ctx.path === '/admin/login.php' && ctx.method === 'POST';
        await kit.count(ctx, signingIn ? 'auth' : ctx.method === 'GET' || ctx.method === 'HEAD' ? 'reads' : 'default');
        await next();
      };

      const methods =
        (...allowed: string[]): Middleware =>
        async (ctx, next) => {
          if (!allowed.includes(ctx.method) && !(ctx.method === 'HEAD' && allowed.includes('GET'))) {
            ctx.set('Allow', allowed.join(', '));
            throw Object.assign(new Error(`Use ${allowed.join(' or ')} on this page`), { status: 405, expose: true });
          }
          await next();
        };

      const page = (path: string | string[], allowed: string[], handler: (ctx: Context) => Promise<void>) => {
        for (const p of Array.isArray(path) ? path : [path]) {
          router.all(p, errors, methods(...allowed), transport, session, resume, csrf, (ctx: Context, _next: Next) => handler(ctx));
        }
      };

      router.get('/admin/admin.css', async (ctx) => {
        ctx.set('ETag', STYLESHEET_ETAG);
        ctx.set('Cache-Control', 'public, max-age=3600');
        if (ctx.get('If-None-Match') === STYLESHEET_ETAG) {
          ctx.status = 304;
          return;
        }
        ctx.type = 'text/css; charset=utf-8';
        ctx.body = STYLESHEET;
      });
      for (const p of ['/admin', '/admin/', '/admin/index.php']) router.get(p, (ctx) => redirect(ctx, '/admin/tokens.php'));

      page('/admin/login.php', ['GET', 'POST'], async (ctx) => {
        const next = safeNext(queryOf(ctx, 'next'));
        if (ctx.method === 'GET') {
          if (stateOf(ctx).admin) return redirect(ctx, next);
          return render(ctx, 'login', {
            title: 'Sign in',
            login: '',
            needCode: false,
            error: null,
            notice: queryOf(ctx, 'signed_out') ? 'You are signed out.' : null,
            next,
          });
        }
        const login = field(ctx, 'login', 191).trim();
        const password = field(ctx, 'password', 200);
        const totp = field(ctx, 'totp', 32).trim() || null;
        if (!login || !password) {
          return render(
            ctx,
            'login',
            { title: 'Sign in', login, needCode: !!totp, error: 'Enter your username or e-mail and your password.', notice: null, next },
            400,
          );
        }
        // Per account as well as per address, as auth.php's logins (docs/decisions/0102).
        await kit.countLogin(login);
        let result;
        try {
          result = await accounts.signIn({ login, password, totp });
        } catch (error) {
          if (!(error instanceof Unauthenticated)) throw error;
          return render(
            ctx,
            'login',
            { title: 'Sign in', login, needCode: false, error: 'Wrong username, e-mail or password.', notice: null, next },
            401,
          );
        }
        if (result.kind === 'two_factor_required') {
          const error = totp ? 'That code is wrong or was already used: enter the current one.' : null;
          const notice = totp
            ? null
            : 'This account has two-factor authentication: enter your password again with the 6-digit code of your app (or a recovery code).';
          return render(ctx, 'login', { title: 'Sign in', login, needCode: true, error, notice, next }, totp ? 401 : 200);
        }
        const s = sessionOf(ctx)!;
        // A new key for the signed-in session (no fixation), and a new CSRF secret with it.
        delete s.secret;
        s.t = result.tokenHash;
        s.maxAge = SIGNED_IN_MS;
        await s.regenerate();
        redirect(ctx, next);
      });

      page('/admin/logout.php', ['POST'], async (ctx) => {
        const s = sessionOf(ctx);
        if (s?.t) await accounts.signOut(s.t);
        (ctx as unknown as { session: null }).session = null;
        redirect(ctx, '/admin/login.php?signed_out=1');
      });

      page('/admin/tokens.php', ['GET', 'POST'], async (ctx) => {
        const admin = await signedIn(ctx, kit);
        if (!admin) return;
        let created: { token: string; expires_at: string } | null = null;
        if (ctx.method === 'POST') {
          const action = field(ctx, 'action', 20);
          if (action === 'create') {
            const issued = await accounts.createToken(admin.actor);
            created = { token: issued.token, expires_at: issued.expires_at };
          } else if (action === 'revoke') {
            const id = Number(field(ctx, 'token_id', 20));
            if (!Number.isSafeInteger(id) || id < 1) throw Invalid.field('token_id', 'must be the id of one of your tokens');
            await accounts.revokeToken(admin.actor, id);
            if (id === admin.tokenId) {
              (ctx as unknown as { session: null }).session = null;
              return redirect(ctx, '/admin/login.php?signed_out=1');
            }
            return redirect(ctx, '/admin/tokens.php?revoked=1');
          } else {
            throw Invalid.field('action', 'must be create or revoke');
          }
        }
        const tokens = await accounts.listTokens(admin.actor);
        render(ctx, 'tokens', {
          title: 'API tokens',
          tokens,
          current: admin.tokenId,
          created,
          notice: queryOf(ctx, 'revoked') ? 'The token is revoked.' : null,
        });
      });

      page('/admin/media_server.php', ['GET', 'POST'], async (ctx) => {
        const admin = await signedIn(ctx, kit);
        if (!admin) return;
        const view = await media.view(admin.actor);
        if (ctx.method === 'GET') {
          return render(ctx, 'media_server', {
            title: 'Media server',
            view,
            form: { url: view.url, api_key: view.api_key },
            error: null,
            problems: [],
            notice: queryOf(ctx, 'saved') ? 'Saved. The next live token is signed with these credentials.' : null,
          });
        }
        const form = {
          url: field(ctx, 'url'),
          api_key: field(ctx, 'api_key', 200),
          api_secret: field(ctx, 'api_secret'),
          password: field(ctx, 'password', 200),
        };
        try {
          await media.save(admin.actor, form);
        } catch (error) {
          if (!(error instanceof Invalid) && !(error instanceof Forbidden && error.code === 'wrong_password')) throw error;
          const status = error instanceof Invalid ? 400 : 403;
          return render(
            ctx,
            'media_server',
            {
              title: 'Media server',
              view,
              form: { url: form.url, api_key: form.api_key },
              error: error.message,
              problems: error.details,
              notice: null,
            },
            status,
          );
        }
        redirect(ctx, '/admin/media_server.php?saved=1');
      });

      page('/admin/turn.php', ['GET', 'POST'], async (ctx) => {
        const admin = await signedIn(ctx, kit);
        if (!admin) return;
        const view = await turn.view(admin.actor);
        const masked = { secret: view.secret_hint ?? '<the shared secret>', realm: view.realm || null };
        const form = { urls: view.urls.join('\n'), ttl: String(view.ttl), realm: view.realm };
        if (ctx.method === 'GET') {
          return render(ctx, 'turn', {
            title: 'TURN relay',
            view,
            form,
            block: coturnBlock(masked),
            full: false,
            error: null,
            problems: [],
            notice: null,
          });
        }
        const input = {
          urls: field(ctx, 'urls', 4000),
          secret: field(ctx, 'secret'),
          ttl: field(ctx, 'ttl', 20),
          realm: field(ctx, 'realm', 253),
          password: field(ctx, 'password', 200),
        };
        try {
          const saved = await turn.save(admin.actor, input);
          const after = await turn.view(admin.actor);
          // The block with the secret in full, this once: the page never shows it again.
          return render(ctx, 'turn', {
            title: 'TURN relay',
            view: after,
            form: { urls: saved.urls.join('\n'), ttl: String(saved.ttl), realm: saved.realm ?? '' },
            block: coturnBlock(saved),
            full: true,
            error: null,
            problems: [],
            notice: 'Saved. settings.php hands out credentials for this relay from now on.',
          });
        } catch (error) {
          if (!(error instanceof Invalid) && !(error instanceof Forbidden && error.code === 'wrong_password')) throw error;
          const status = error instanceof Invalid ? 400 : 403;
          return render(
            ctx,
            'turn',
            {
              title: 'TURN relay',
              view,
              form: { urls: input.urls, ttl: input.ttl, realm: input.realm },
              block: coturnBlock(masked),
              full: false,
              error: error.message,
              problems: error.details,
              notice: null,
            },
            status,
          );
        }
      });

      const sectionKit: AdminKit = { page, render, redirect, signedIn: (ctx) => signedIn(ctx, kit), field, queryOf };
      for (const section of sections) section.mount(sectionKit);

      page(ADMIN_PATHS, ['GET', 'POST'], async (ctx) => {
        const admin = await signedIn(ctx, kit);
        if (!admin) return;
        const tab = queryOf(ctx, 'tab');
        if (tab !== 'technicians') {
          if (ctx.method === 'GET' && tab === '') return redirect(ctx, `${ctx.path}?tab=technicians`);
          throw new NotFound('Unknown tab: the admin page has tab=technicians', 'unknown_tab');
        }
        const q = queryOf(ctx, 'q').slice(0, 100);
        const pageNo = Math.min(Math.max(Number(queryOf(ctx, 'page')) || 1, 1), 10_000);
        const here = `${ctx.path}?tab=technicians${q ? `&q=${encodeURIComponent(q)}` : ''}${pageNo > 1 ? `&page=${pageNo}` : ''}`;
        let error: string | null = null;
        let status = 200;
        if (ctx.method === 'POST') {
          const action = field(ctx, 'action', 20);
          const userId = Number(field(ctx, 'user_id', 20));
          if (!Number.isSafeInteger(userId) || userId < 1) throw Invalid.field('user_id', 'must be a user id');
          try {
            if (action === 'promote') await roles.promote(admin.actor, userId);
            else if (action === 'withdraw') await roles.withdraw(admin.actor, userId);
            else throw Invalid.field('action', 'must be promote or withdraw');
            if (action === 'withdraw' && userId === admin.actor.userId) return redirect(ctx, '/admin/tokens.php');
            return redirect(ctx, `${here}&done=${action}`);
          } catch (e) {
            if (!(e instanceof Conflict) && !(e instanceof NotFound)) throw e;
            error = e.message;
            status = e instanceof Conflict ? 409 : 404;
          }
        }
        const list = await roles.list(admin.actor, q || null, pageRequest(pageNo, 50));
        const done = queryOf(ctx, 'done');
        render(
          ctx,
          'technicians',
          {
            title: 'Administrators',
            users: list.items,
            more: list.more,
            q,
            pageNo,
            here,
            error,
            notice: done === 'promote' ? 'Promoted to administrator.' : done === 'withdraw' ? 'Administrator role withdrawn.' : null,
          },
          status,
        );
      });
    },
  };
}

function titleOf(status: number): string {
  if (status === 403) return 'Not allowed';
  if (status === 404) return 'Not found';
  if (status === 429) return 'Too many requests';
  if (status === 405) return 'Method not allowed';
  return 'Request refused';
}
