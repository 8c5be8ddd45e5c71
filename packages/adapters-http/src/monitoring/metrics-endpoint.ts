import { createHash, timingSafeEqual } from 'node:crypto';
import { Unauthenticated, Unavailable } from '@plaza/domain';
import type { Context, Next } from 'koa';
import { MethodNotAllowed } from '../http/dispatcher.js';
import type { PlazaMetrics } from './metrics.js';

export interface MetricsEndpoint {
  metrics: PlazaMetrics;
  /** API_METRICS_TOKEN: when set, only `Authorization: Bearer <token>` is answered. */
  token: string | null;
}

const digest = (value: string) => createHash('sha256').update(value).digest();

/**
 * GET /metrics. A wrong or missing token is a 401 and counts by address in `default` (`countRefusal`),
 * so that guessing the token is rate-limited; the comparison takes the same time whatever the guess
 * (digests of equal length, compared in constant time).
 */
export function metricsEndpoint(endpoint: MetricsEndpoint, countRefusal: (ctx: Context) => Promise<void>) {
  const expected = endpoint.token === null ? null : digest(endpoint.token);
  return async (ctx: Context, next: Next) => {
    if (ctx.path !== '/metrics') return next();
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') throw new MethodNotAllowed(['GET', 'HEAD']);
    if (expected) {
      const presented = /^Bearer\s+(\S+)$/i.exec(ctx.get('Authorization'))?.[1] ?? '';
      if (!timingSafeEqual(digest(presented), expected)) {
        await countRefusal(ctx);
        throw new Unauthenticated('Send Authorization: Bearer <API_METRICS_TOKEN>', 'metrics_token_required');
      }
    }
    let text: string;
    try {
      text = await endpoint.metrics.render();
    } catch (error) {
      // With API_WORKERS, a worker that does not answer the primary in time (one still starting).
      throw new Unavailable(`Metrics are not available now: ${(error as Error).message}`, 'metrics_unavailable');
    }
    ctx.status = 200;
    ctx.set('Cache-Control', 'no-store');
    ctx.type = endpoint.metrics.contentType;
    ctx.body = text;
  };
}
