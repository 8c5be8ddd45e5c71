import { lookup as dnsLookup } from 'node:dns/promises';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { BlockList, isIP, type LookupFunction } from 'node:net';

/**
 * The one HTTP client of federation (DESIGN.md §1.4): every outbound request (WebFinger, actor and
 * outbox documents, the JSON-LD document loader, deliveries) goes through `GuardedClient.fetch`.
 *
 * - Only http(s) URLs. The host is resolved once, every address checked, and the socket connects to
 *   an address that passed (the check is the connection's own `lookup`), so a name that resolves to a
 *   public address when checked and to a private one when connecting (DNS rebinding) gets nowhere.
 * - Loopback, private, carrier-grade NAT, link-local, multicast, unspecified and reserved addresses are
 *   refused unless `allowPrivate` (API_FEDERATION_ALLOW_PRIVATE, for tests and closed networks).
 * - 10 seconds for the whole exchange, at most 2 redirects (each hop checked again), and at most 1 MB
 *   of response body: a longer body fails the request rather than being cut.
 */

export interface GuardOptions {
  allowPrivate: boolean;
  timeoutMs?: number;
  maxRedirects?: number;
  maxBytes?: number;
  userAgent?: string;
  /** Name resolution; the system resolver by default (tests substitute one). */
  resolve?: (host: string) => Promise<{ address: string; family: number }[]>;
}

/** The request was refused by the policy (not a network failure): a private address, too many redirects, too large. */
export class GuardRefusal extends Error {
  constructor(
    message: string,
    readonly reason: 'private_address' | 'scheme' | 'redirects' | 'too_large' | 'timeout',
  ) {
    super(message);
    this.name = 'GuardRefusal';
  }
}

const blocked = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], // "this network", unspecified
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local (cloud metadata endpoints live here)
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const) {
  blocked.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b::', 96], // NAT64 (may reach private IPv4)
  ['100::', 64], // discard
  ['2001:db8::', 32], // documentation
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
] as const) {
  blocked.addSubnet(net, prefix, 'ipv6');
}

/** Whether an address is one federation must not reach by default. */
export function isNonPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return blocked.check(address, 'ipv4');
  if (family === 6) {
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
    if (mapped) return blocked.check(mapped[1], 'ipv4');
    return blocked.check(address, 'ipv6');
  }
  return true;
}

const DEFAULTS = { timeoutMs: 10_000, maxRedirects: 2, maxBytes: 1024 * 1024 };

export interface GuardedRequest {
  method?: string;
  headers?: Record<string, string> | Headers;
  body?: string | Uint8Array;
}

export class GuardedClient {
  private readonly timeoutMs: number;
  private readonly maxRedirects: number;
  readonly maxBytes: number;
  private readonly resolveHost: (host: string) => Promise<{ address: string; family: number }[]>;

  constructor(private readonly options: GuardOptions) {
    this.timeoutMs = options.timeoutMs ?? DEFAULTS.timeoutMs;
    this.maxRedirects = options.maxRedirects ?? DEFAULTS.maxRedirects;
    this.maxBytes = options.maxBytes ?? DEFAULTS.maxBytes;
    this.resolveHost = options.resolve ?? ((host) => dnsLookup(host, { all: true, verbatim: true }));
  }

  /** The addresses of `host` that the policy allows; throws when none is allowed. */
  async addressesOf(host: string): Promise<{ address: string; family: number }[]> {
    const bare = host.replace(/^\[|\]$/g, '');
    const all = isIP(bare) ? [{ address: bare, family: isIP(bare) }] : await this.resolveHost(bare);
    if (this.options.allowPrivate) return all;
    const refused = all.filter((a) => isNonPublicAddress(a.address));
    if (refused.length > 0 || all.length === 0) {
      throw new GuardRefusal(`Refused to connect to ${host}: it resolves to a non-public address`, 'private_address');
    }
    return all;
  }

  /**
   * Fetches `url` under the policy and returns the final response (after redirects) with its body
   * read (at most `maxBytes`). `response.url` is the final URL.
   */
  async fetch(url: string | URL, init: GuardedRequest = {}): Promise<Response> {
    const deadline = Date.now() + this.timeoutMs;
    let current = new URL(url);
    let method = (init.method ?? 'GET').toUpperCase();
    let body = init.body;
    for (let hop = 0; ; hop++) {
      const answer = await this.once(current, method, init.headers, body, deadline);
      const location = answer.status >= 300 && answer.status < 400 ? answer.headers.get('location') : null;
      if (!location) return answer.response;
      if (hop >= this.maxRedirects) throw new GuardRefusal(`More than ${this.maxRedirects} redirects from ${new URL(url).href}`, 'redirects');
      current = new URL(location, current);
      // 303, and 301/302 after a POST, continue as GET without the body (as browsers and fetch do).
      if (answer.status === 303 || ((answer.status === 301 || answer.status === 302) && method === 'POST')) {
        method = 'GET';
        body = undefined;
      }
    }
  }

  private async once(
    url: URL,
    method: string,
    headers: GuardedRequest['headers'],
    body: string | Uint8Array | undefined,
    deadline: number,
  ): Promise<{ status: number; headers: Headers; response: Response }> {
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new GuardRefusal(`Refused to fetch ${url.protocol} URLs`, 'scheme');
    const remaining = deadline - Date.now();
    if (remaining <= 0) throw new GuardRefusal(`Timed out fetching ${url.href}`, 'timeout');
    const addresses = await this.addressesOf(url.hostname);
    const pinned: LookupFunction = (_host, opts, callback) => {
      const wanted = typeof opts === 'object' && opts && 'family' in opts ? opts.family : 0;
      const choice = addresses.find((a) => !wanted || a.family === wanted) ?? addresses[0];
      if (typeof opts === 'object' && opts && 'all' in opts && opts.all) (callback as unknown as (e: null, a: typeof addresses) => void)(null, [choice]);
      else callback(null, choice.address, choice.family);
    };
    const outgoing: Record<string, string> = {};
    new Headers(headers as ConstructorParameters<typeof Headers>[0]).forEach((v, k) => {
      outgoing[k] = v;
    });
    if (this.options.userAgent && !outgoing['user-agent']) outgoing['user-agent'] = this.options.userAgent;
    const payload = body === undefined ? undefined : typeof body === 'string' ? Buffer.from(body) : Buffer.from(body);
    if (payload) outgoing['content-length'] = String(payload.length);

    return new Promise((resolve, reject) => {
      const requester = url.protocol === 'https:' ? httpsRequest : httpRequest;
      const req = requester(url, { method, headers: outgoing, lookup: pinned, timeout: remaining });
      const timer = setTimeout(() => req.destroy(new GuardRefusal(`Timed out fetching ${url.href}`, 'timeout')), remaining);
      const fail = (error: Error) => {
        clearTimeout(timer);
        reject(error);
      };
      req.on('timeout', () => req.destroy(new GuardRefusal(`Timed out fetching ${url.href}`, 'timeout')));
      req.on('error', fail);
      req.on('response', (res: IncomingMessage) => {
        const declared = Number(res.headers['content-length'] ?? '0');
        if (declared > this.maxBytes) {
          res.destroy();
          req.destroy();
          fail(new GuardRefusal(`The response of ${url.href} is larger than ${this.maxBytes} bytes`, 'too_large'));
          return;
        }
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > this.maxBytes) {
            res.destroy();
            req.destroy();
            fail(new GuardRefusal(`The response of ${url.href} is larger than ${this.maxBytes} bytes`, 'too_large'));
            return;
          }
          chunks.push(chunk);
        });
        res.on('error', fail);
        res.on('end', () => {
          clearTimeout(timer);
          const responseHeaders = new Headers();
          for (const [k, v] of Object.entries(res.headers)) {
            if (v === undefined) continue;
            for (const value of Array.isArray(v) ? v : [v]) responseHeaders.append(k, value);
          }
          const status = res.statusCode ?? 0;
          const nullBody = status === 204 || status === 304 || method === 'HEAD' || (status >= 100 && status < 200);
          const response = new Response(nullBody ? null : Buffer.concat(chunks), { status, statusText: res.statusMessage, headers: responseHeaders });
          Object.defineProperty(response, 'url', { value: url.href });
          resolve({ status, headers: responseHeaders, response });
        });
      });
      if (payload) req.write(payload);
      req.end();
    });
  }
}
