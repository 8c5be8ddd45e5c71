import type { Middleware } from 'koa';

/**
 * CORS from API_CORS_ORIGINS: `*`, a list of exact origins (the configuration refuses any entry that is
 * not one, since it could never match), or an empty list: no cross-origin access. Tokens travel in the
 * Authorization header, never in cookies, so credentials are not allowed.
 */
export function cors(origins: string[]): Middleware {
  const any = origins.includes('*');
  return async (ctx, next) => {
    const origin = ctx.get('Origin');
    const allowed = origin && (any || origins.includes(origin));
    // Unless every origin gets the same answer, a cache must not hand one origin's answer to another.
    if (!any) ctx.vary('Origin');
    if (allowed) {
      ctx.set('Access-Control-Allow-Origin', any ? '*' : origin);
      ctx.set('Access-Control-Expose-Headers', 'X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, Retry-After, X-Request-Id');
    }
    if (ctx.method === 'OPTIONS' && ctx.get('Access-Control-Request-Method')) {
      if (allowed) {
        ctx.set('Access-Control-Allow-Methods', 'GET, POST, PUT, DELETE, OPTIONS');
        ctx.set(
          'Access-Control-Allow-Headers',
          ctx.get('Access-Control-Request-Headers') || 'Authorization, Content-Type, Accept, X-Flutter-App, X-Mobile-App',
        );
        ctx.set('Access-Control-Max-Age', '600');
      }
      ctx.status = 204;
      return;
    }
    await next();
  };
}
