import { lookup as dnsLookup } from 'node:dns/promises';
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { refusalOf } from './address-policy.js';

export { isNonPublicAddress, refusalOf } from './address-policy.js';

/**
 * The one HTTP client of federation (DESIGN.md §1.4, docs/decisions/0111): every outbound request
 * whose destination a user or a remote server names (WebFinger, actor, outbox and collection
 * documents, signature keys, the JSON-LD document loader, deliveries) goes through
 * `GuardedClient.fetch`.
 *
 * - Only http(s) URLs. A host name is resolved by the connection's own `lookup` (set on this
 *   client's agents), which refuses unless every address it found is a global unicast one
 *   (address-policy.ts): the address judged is the address connected to, so a name that resolves to
 *   a public address once and to a private one later (DNS rebinding) gets nowhere. An address
 *   literal (which Node connects to without a lookup) is judged before the request.
 * - Refusal is lifted by `allowPrivate` (API_FEDERATION_ALLOW_PRIVATE, for tests and closed networks).
 * - 10 seconds for the whole exchange, at most 2 redirects (each hop judged again), and at most 1 MB
 *   of response body: a longer body fails the request rather than being cut.
 * - Sockets are pooled per client (keep-alive agents of its own), never shared with another client.
 */

export type Resolver = (host: string) => Promise<{ address: string; family: number }[]>;

export interface GuardOptions {
  allowPrivate: boolean;
  timeoutMs?: number;
  maxRedirects?: number;
  maxBytes?: number;
  userAgent?: string;
  /** Name resolution; the system resolver by default (tests substitute one). */
  resolve?: Resolver;
  /** Why an address may not be connected to, or null; `refusalOf` by default (a test names one more destination it may reach). */
  refusal?: (address: string) => string | null;
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
  private readonly resolveHost: Resolver;
  private readonly refusal: (address: string) => string | null;
  private readonly agents: { http: HttpAgent; https: HttpsAgent };

  constructor(private readonly options: GuardOptions) {
    this.timeoutMs = options.timeoutMs ?? DEFAULTS.timeoutMs;
    this.maxRedirects = options.maxRedirects ?? DEFAULTS.maxRedirects;
    this.maxBytes = options.maxBytes ?? DEFAULTS.maxBytes;
    this.resolveHost = options.resolve ?? ((host) => dnsLookup(host, { all: true, verbatim: true }));
    this.refusal = options.refusal ?? refusalOf;
    // The lookup lives on the agents: every socket they open asks it, at connect time.
    const lookup = this.connectLookup();
    this.agents = { http: new HttpAgent({ keepAlive: true, lookup }), https: new HttpsAgent({ keepAlive: true, lookup }) };
  }

  /** The addresses of `host` (a name or an address literal); throws GuardRefusal unless every one is allowed. */
  async addressesOf(host: string): Promise<{ address: string; family: number }[]> {
    const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
    const all = isIP(bare) ? [{ address: bare, family: isIP(bare) }] : await this.resolveHost(bare);
    if (this.options.allowPrivate) return all;
    if (all.length === 0) throw new GuardRefusal(`Refused to connect to ${host}: it resolves to no address`, 'private_address');
    for (const { address } of all) {
      const why = this.refusal(address);
      // One refused answer refuses the name: no choosing between its addresses.
      if (why !== null)
        throw new GuardRefusal(`Refused to connect to ${host}: ${address} is not a public address (${why})`, 'private_address');
    }
    return all;
  }

  /** Closes the pooled sockets (keep-alive) of this client. */
  close(): void {
    this.agents.http.destroy();
    this.agents.https.destroy();
  }

  /** The `lookup` of every connection: resolves, judges, and hands the socket only addresses that passed. */
  private connectLookup(): LookupFunction {
    return (hostname, options, callback) => {
      this.addressesOf(hostname).then(
        (addresses) => {
          const family = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : (options.family ?? 0);
          const usable = family ? addresses.filter((a) => a.family === family) : addresses;
          if (usable.length === 0) {
            callback(Object.assign(new Error(`No IPv${family} address for ${hostname}`), { code: 'ENOTFOUND' }), '', 0);
          } else if (options.all) callback(null, usable);
          else callback(null, usable[0].address, usable[0].family);
        },
        (error: Error) => callback(error, '', 0),
      );
    };
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
      if (hop >= this.maxRedirects)
        throw new GuardRefusal(`More than ${this.maxRedirects} redirects from ${new URL(url).href}`, 'redirects');
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
    // Node connects to an address literal without calling the agent's lookup: judge it here.
    if (isIP(url.hostname.replace(/^\[|\]$/g, ''))) await this.addressesOf(url.hostname);
    const outgoing: Record<string, string> = {};
    new Headers(headers as ConstructorParameters<typeof Headers>[0]).forEach((v, k) => {
      outgoing[k] = v;
    });
    if (this.options.userAgent && !outgoing['user-agent']) outgoing['user-agent'] = this.options.userAgent;
    const payload = body === undefined ? undefined : typeof body === 'string' ? Buffer.from(body) : Buffer.from(body);
    if (payload) outgoing['content-length'] = String(payload.length);

    return new Promise((resolve, reject) => {
      const req =
        url.protocol === 'https:'
          ? httpsRequest(url, { method, headers: outgoing, agent: this.agents.https, timeout: remaining })
          : httpRequest(url, { method, headers: outgoing, agent: this.agents.http, timeout: remaining });
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
          const response = new Response(nullBody ? null : Buffer.concat(chunks), {
            status,
            statusText: res.statusMessage,
            headers: responseHeaders,
          });
          Object.defineProperty(response, 'url', { value: url.href });
          resolve({ status, headers: responseHeaders, response });
        });
      });
      if (payload) req.write(payload);
      req.end();
    });
  }
}
