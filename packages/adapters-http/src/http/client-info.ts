import type { Context } from 'koa';

export interface ProxyPolicy {
  /** Addresses of reverse proxies whose X-Forwarded-* headers are believed. */
  trustedProxies: string[];
}

function normalise(addr: string | undefined): string {
  if (!addr) return '';
  return addr.startsWith('::ffff:') ? addr.slice(7) : addr;
}

function isTrusted(addr: string, policy: ProxyPolicy): boolean {
  return policy.trustedProxies.includes(addr);
}

/** The client address: the socket peer, or the nearest untrusted hop of X-Forwarded-For behind a trusted proxy. */
export function clientIp(ctx: Context, policy: ProxyPolicy): string {
  const peer = normalise(ctx.req.socket.remoteAddress);
  if (!isTrusted(peer, policy)) return peer || 'unknown';
  const forwarded = String(ctx.get('X-Forwarded-For') || '')
    .split(',')
    .map((s) => normalise(s.trim()))
    .filter(Boolean);
  for (let i = forwarded.length - 1; i >= 0; i--) if (!isTrusted(forwarded[i], policy)) return forwarded[i];
  return peer;
}

/** True on a TLS socket, or when a trusted proxy says the client spoke HTTPS to it. */
export function isSecure(ctx: Context, policy: ProxyPolicy): boolean {
  if ((ctx.req.socket as { encrypted?: boolean }).encrypted) return true;
  const peer = normalise(ctx.req.socket.remoteAddress);
  return isTrusted(peer, policy) && ctx.get('X-Forwarded-Proto').split(',')[0].trim().toLowerCase() === 'https';
}
