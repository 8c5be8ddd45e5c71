import type { RateLimitGroup } from '@plaza/domain';
import type { Context, Next } from 'koa';
import { Readable } from 'node:stream';
import { readRawBody } from './raw-body.js';

/**
 * A handler of URLs outside the scripts (federation's WebFinger, NodeInfo, actor documents and
 * inboxes), in Fetch API terms. It is consulted before any body is read, so it gets the exact bytes
 * (signatures are computed over them).
 */
export interface HttpMount {
  /**
   * Whether the mount answers this path (no query string); given the method and headers too, since
   * one URL may be the API's for the app and the mount's for a remote server (a Note id, by `Accept`).
   */
  matches(path: string, request?: { method: string; headers: Record<string, string | string[] | undefined> }): boolean;
  fetch(request: Request): Promise<Response>;
  /** Largest body it reads; a longer one is a 413. */
  maxBodyBytes: number;
  /** Its public URLs by name, listed by index.php (`{username}` for a user's name). */
  publicPaths?: Record<string, string>;
}

const BODYLESS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Koa middleware handing matching requests to their mount: reads are counted in `reads` by address
 * like any other GET; deliveries to inboxes (server-to-server, signed) are not counted per address,
 * since one large remote server delivers for all its users from one address (docs/decisions/0051).
 */
export function mountsMiddleware(mounts: HttpMount[], count: (ctx: Context, group: RateLimitGroup) => Promise<void>) {
  return async (ctx: Context, next: Next) => {
    const mount = mounts.find((m) => m.matches(ctx.path, { method: ctx.method, headers: ctx.headers }));
    if (!mount) return next();
    if (BODYLESS.has(ctx.method)) await count(ctx, 'reads');
    const body = BODYLESS.has(ctx.method) ? undefined : await readRawBody(ctx.req, mount.maxBodyBytes);
    const headers = new Headers();
    for (const [k, v] of Object.entries(ctx.headers)) {
      if (v === undefined) continue;
      for (const value of Array.isArray(v) ? v : [v]) headers.append(k, value);
    }
    // The URL as the client addressed it: the signature's host and (request-target) are its own.
    const request = new Request(`${ctx.protocol}://${ctx.host}${ctx.originalUrl}`, {
      method: ctx.method,
      headers,
      body: body === undefined ? undefined : body,
    });
    const response = await mount.fetch(request);
    ctx.status = response.status;
    response.headers.forEach((value, key) => {
      if (key !== 'content-length' && key !== 'transfer-encoding') ctx.set(key, value);
    });
    const length = response.headers.get('content-length');
    if (ctx.method === 'HEAD') {
      // The GET's status and headers, its length included (a player sizes a video by it), no body.
      if (length !== null) ctx.set('Content-Length', length);
      await response.body?.cancel();
      return;
    }
    if (response.body && length !== null) {
      // A body of declared length (a served upload) streams as it is read, never held whole.
      ctx.body = Readable.fromWeb(response.body as import('node:stream/web').ReadableStream);
      ctx.length = Number(length);
      return;
    }
    const bytes = Buffer.from(await response.arrayBuffer());
    ctx.body = bytes.length === 0 ? '' : bytes;
  };
}
