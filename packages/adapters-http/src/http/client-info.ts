import { isIP } from 'node:net';
import type { Context } from 'koa';
import proxyaddr from 'proxy-addr';

export interface ProxyPolicy {
  /**
   * Reverse proxies whose X-Forwarded-* headers are believed: addresses, CIDR ranges (`10.0.0.0/8`) and
   * the named ranges `loopback`, `linklocal`, `uniquelocal` of proxy-addr.
   */
  trustedProxies: string[];
}

export type TrustsProxy = (addr: string, hop: number) => boolean;

/**
 * Compiles the trusted-proxy list once, at start-up. Throws on an entry that is neither an address, a
 * range nor a named range, naming it; `trustedProxyProblem` says the same for configuration checks.
 */
export function compileProxyTrust(policy: ProxyPolicy): TrustsProxy {
  return proxyaddr.compile(policy.trustedProxies);
}

/** Why one API_TRUSTED_PROXIES entry is unusable, or null when proxy-addr understands it. */
export function trustedProxyProblem(entry: string): string | null {
  try {
    proxyaddr.compile(entry);
    return null;
  } catch (error) {
    return `${(error as Error).message}; use an address, a CIDR range such as 10.0.0.0/8, or loopback, linklocal, uniquelocal`;
  }
}

function normalise(addr: string | undefined): string {
  if (!addr) return '';
  return addr.startsWith('::ffff:') ? addr.slice(7) : addr;
}

/** The client address: the socket peer, or the nearest untrusted hop of X-Forwarded-For behind trusted proxies. */
export function clientIp(ctx: Context, trust: TrustsProxy): string {
  // The socket peer first, then X-Forwarded-For from the nearest hop, up to the first untrusted one.
  const hops = proxyaddr.all(ctx.req, trust);
  let client = hops[hops.length - 1];
  // A hop that is no address (a forged or mangled header) identifies nobody and must not become a
  // rate-limit key of any length: the trusted proxy that relayed it stands in for it.
  if (hops.length > 1 && !isIP(client)) client = hops[hops.length - 2];
  return normalise(client) || 'unknown';
}

/** True on a TLS socket, or when a trusted proxy says the client spoke HTTPS to it. */
export function isSecure(ctx: Context, trust: TrustsProxy): boolean {
  if ((ctx.req.socket as { encrypted?: boolean }).encrypted) return true;
  const peer = ctx.req.socket.remoteAddress;
  return !!peer && trust(peer, 0) && ctx.get('X-Forwarded-Proto').split(',')[0].trim().toLowerCase() === 'https';
}
