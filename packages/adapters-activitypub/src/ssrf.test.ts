import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GuardedClient, GuardRefusal, refusalOf } from './ssrf.js';

let server: Server;
let base: string;
let port: number;
/** The paths the listener was asked for, in order. */
const seen: string[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    seen.push(url.pathname);
    if (url.pathname === '/to-mapped') {
      // An allowed first hop sends the client to the hexadecimal IPv4-mapped spelling of loopback.
      res.writeHead(302, { Location: `http://[::ffff:7f00:1]:${port}/inside` });
      res.end();
    } else if (url.pathname === '/ok' || url.pathname === '/inside') {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end('{"ok":true}');
    } else if (url.pathname === '/redirect') {
      const n = Number(url.searchParams.get('n'));
      res.writeHead(302, { Location: n > 0 ? `/redirect?n=${n - 1}` : '/ok' });
      res.end();
    } else if (url.pathname === '/big') {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      // No Content-Length: the cap must hold while streaming too.
      const chunk = Buffer.alloc(64 * 1024, 'x');
      let sent = 0;
      const pump = () => {
        while (sent < 2 * 1024 * 1024) {
          sent += chunk.length;
          if (!res.write(chunk)) return res.once('drain', pump);
        }
        res.end();
      };
      pump();
    } else if (url.pathname === '/slow') {
      setTimeout(() => res.end('late'), 2_000).unref();
    } else if (url.pathname === '/echo') {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        res.writeHead(202, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ method: req.method, body: Buffer.concat(chunks).toString(), signature: req.headers.signature ?? null }));
      });
    } else {
      res.writeHead(404);
      res.end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  base = `http://127.0.0.1:${port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('GuardedClient', () => {
  const refusal = async (promise: Promise<unknown>) => {
    const error = await promise.then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(GuardRefusal);
    return (error as GuardRefusal).reason;
  };

  it('refuses loopback, private and link-local addresses unless allowed, whether literal or resolved', async () => {
    const strict = new GuardedClient({
      allowPrivate: false,
      resolve: async (host) => [{ address: host === 'inside.example' ? '10.0.0.7' : '93.184.216.34', family: 4 }],
    });
    expect(await refusal(strict.fetch(`${base}/ok`))).toBe('private_address');
    expect(await refusal(strict.fetch('http://169.254.169.254/latest/meta-data/'))).toBe('private_address');
    expect(await refusal(strict.fetch('http://[::1]/'))).toBe('private_address');
    expect(await refusal(strict.fetch('http://inside.example/'))).toBe('private_address');
    // One non-public address among the answers is enough to refuse (no choosing between them).
    const mixed = new GuardedClient({
      allowPrivate: false,
      resolve: async () => [
        { address: '93.184.216.34', family: 4 },
        { address: '127.0.0.1', family: 4 },
      ],
    });
    expect(await refusal(mixed.fetch('http://mixed.example/'))).toBe('private_address');
    expect(await refusal(strict.fetch('file:///etc/passwd'))).toBe('scheme');

    const open = new GuardedClient({ allowPrivate: true });
    const res = await open.fetch(`${base}/ok`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true });
  });

  it('connects to the address it checked (the resolver is asked once, its answer used)', async () => {
    let asked = 0;
    const pinned = new GuardedClient({
      allowPrivate: true,
      resolve: async () => {
        asked += 1;
        return [{ address: '127.0.0.1', family: 4 }];
      },
    });
    const res = await pinned.fetch(`http://peer.invalid:${new URL(base).port}/ok`);
    expect(res.status).toBe(200);
    expect(asked).toBe(1);
  });

  it('follows at most 2 redirects', async () => {
    const client = new GuardedClient({ allowPrivate: true });
    const two = await client.fetch(`${base}/redirect?n=1`);
    expect(two.status).toBe(200);
    expect(two.url).toBe(`${base}/ok`);
    expect(await refusal(client.fetch(`${base}/redirect?n=2`))).toBe('redirects');
  });

  it('refuses a body over the cap (1 MB by default) and gives up after the timeout', async () => {
    const client = new GuardedClient({ allowPrivate: true });
    expect(await refusal(client.fetch(`${base}/big`))).toBe('too_large');
    const quick = new GuardedClient({ allowPrivate: true, timeoutMs: 200 });
    const started = Date.now();
    expect(await refusal(quick.fetch(`${base}/slow`))).toBe('timeout');
    expect(Date.now() - started).toBeLessThan(1_500);
  });

  it('sends a POST body and headers as given', async () => {
    const client = new GuardedClient({ allowPrivate: true });
    const res = await client.fetch(`${base}/echo`, {
      method: 'POST',
      headers: { Signature: 'sig', 'Content-Type': 'application/activity+json' },
      body: '{"a":1}',
    });
    expect(res.status).toBe(202);
    expect(await res.json()).toEqual({ method: 'POST', body: '{"a":1}', signature: 'sig' });
  });

  it('judges every redirect hop: an allowed first hop that redirects to [::ffff:7f00:1] is refused before connecting', async () => {
    // The test names one destination the policy allows (public.example, resolved to the listener);
    // the redirect's hexadecimal IPv4-mapped loopback is judged by the real policy.
    const onlyPublicExample = (address: string) => (address === '127.0.0.1' ? null : refusalOf(address));
    const client = new GuardedClient({
      allowPrivate: false,
      refusal: onlyPublicExample,
      resolve: async () => [{ address: '127.0.0.1', family: 4 }],
    });
    seen.length = 0;
    expect(await refusal(client.fetch(`http://public.example:${port}/to-mapped`))).toBe('private_address');
    expect(seen).toEqual(['/to-mapped']);
    // The second hop is live: allowed, the same redirect reaches the listener.
    seen.length = 0;
    const open = new GuardedClient({ allowPrivate: true, resolve: async () => [{ address: '127.0.0.1', family: 4 }] });
    expect((await open.fetch(`http://public.example:${port}/to-mapped`)).status).toBe(200);
    expect(seen).toEqual(['/to-mapped', '/inside']);
    client.close();
    open.close();
  });

  it('judges the address at connect time: a name that resolves to loopback is refused, whatever it looks like', async () => {
    let asked = 0;
    const client = new GuardedClient({
      allowPrivate: false,
      resolve: async () => {
        asked += 1;
        return [{ address: '::ffff:7f00:1', family: 6 }];
      },
    });
    seen.length = 0;
    expect(await refusal(client.fetch(`http://www.example.com:${port}/ok`))).toBe('private_address');
    expect(asked).toBe(1);
    expect(seen).toEqual([]);
  });

  it('never lends a pooled connection of one client to another', async () => {
    // A keep-alive socket to the listener, opened by a client that may reach loopback…
    const toLoopback = async () => [{ address: '127.0.0.1', family: 4 }];
    const open = new GuardedClient({ allowPrivate: true, resolve: toLoopback });
    expect((await open.fetch(`http://peer.example:${port}/ok`)).status).toBe(200);
    // …is not reused by a guarded client for the same host and port: its own lookup refuses.
    const strict = new GuardedClient({ allowPrivate: false, resolve: toLoopback });
    seen.length = 0;
    expect(await refusal(strict.fetch(`http://peer.example:${port}/ok`))).toBe('private_address');
    expect(seen).toEqual([]);
    open.close();
    strict.close();
  });
});
