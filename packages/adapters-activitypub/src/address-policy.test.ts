import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refusalOf } from './address-policy.js';
import { GuardedClient, GuardRefusal } from './ssrf.js';

/**
 * The address policy, table-driven (docs/decisions/0111): each host is written as a URL would carry
 * it, normalised by the URL parser as the client's is, then judged. Refused hosts are also fetched
 * through the guarded client, at the port of a loopback listener that counts connections: none
 * may arrive. The forms are those of issue 27's sweep (16 of which connected under the old guard).
 */
const REFUSED: [host: string, form: string][] = [
  ['127.0.0.1', 'loopback'],
  ['127.5.6.7', 'loopback, not .1'],
  ['2130706433', 'loopback, decimal'],
  ['0x7f000001', 'loopback, hexadecimal'],
  ['0177.0.0.1', 'loopback, octal'],
  ['017700000001', 'loopback, one octal number'],
  ['127.1', 'loopback, short'],
  ['0x7f.1', 'loopback, short hexadecimal'],
  ['10.0.0.1', 'private'],
  ['172.16.0.1', 'private'],
  ['172.31.255.255', 'private, end of 172.16/12'],
  ['192.168.1.1', 'private'],
  ['169.254.169.254', 'link-local (cloud metadata)'],
  ['100.64.0.1', 'carrier-grade NAT'],
  ['100.127.255.254', 'carrier-grade NAT, end of 100.64/10'],
  ['0.0.0.0', 'unspecified'],
  ['0', 'unspecified, one number'],
  ['224.0.0.1', 'multicast'],
  ['239.255.255.250', 'multicast'],
  ['255.255.255.255', 'broadcast'],
  ['240.0.0.1', 'reserved'],
  ['192.0.0.8', 'IETF protocol assignments'],
  ['198.18.0.1', 'benchmarking'],
  ['198.19.255.1', 'benchmarking, end of 198.18/15'],
  ['192.0.2.1', 'documentation (TEST-NET-1)'],
  ['198.51.100.7', 'documentation (TEST-NET-2)'],
  ['203.0.113.9', 'documentation (TEST-NET-3)'],
  ['[::1]', 'IPv6 loopback'],
  ['[0:0:0:0:0:0:0:1]', 'IPv6 loopback, full'],
  ['[::]', 'IPv6 unspecified'],
  ['[::ffff:127.0.0.1]', 'IPv4-mapped, dotted'],
  ['[::ffff:7f00:1]', 'IPv4-mapped, hexadecimal'],
  ['[0:0:0:0:0:ffff:7f00:1]', 'IPv4-mapped, full'],
  ['[::FFFF:7F00:0001]', 'IPv4-mapped, upper case, zero-padded'],
  ['[0000:0000:0000:0000:0000:ffff:127.0.0.1]', 'IPv4-mapped, full, dotted'],
  ['[::ffff:a00:1]', 'IPv4-mapped 10.0.0.1'],
  ['[::ffff:169.254.169.254]', 'IPv4-mapped link-local'],
  ['[::ffff:6440:1]', 'IPv4-mapped carrier-grade NAT'],
  ['[::127.0.0.1]', 'IPv4-compatible, dotted'],
  ['[::7f00:1]', 'IPv4-compatible, hexadecimal'],
  ['[::ffff:0:7f00:1]', 'IPv4-translated'],
  ['[::ffff:0:127.0.0.1]', 'IPv4-translated, dotted'],
  ['[64:ff9b::7f00:1]', 'NAT64 of loopback'],
  ['[64:ff9b::10.0.0.1]', 'NAT64 of private, dotted'],
  ['[64:ff9b::808:808]', 'NAT64 of a public address (the translator is inside)'],
  ['[64:ff9b:1::a00:1]', 'local-use NAT64'],
  ['[2002:7f00:1::]', '6to4 of loopback'],
  ['[2002:a00:1::1]', '6to4 of private'],
  ['[2001:0:4136:e378:8000:63bf:80ff:fffe]', 'Teredo'],
  ['[fe80::1]', 'IPv6 link-local'],
  ['[fc00::1]', 'unique local'],
  ['[fd12:3456::1]', 'unique local'],
  ['[fec0::1]', 'site-local (deprecated)'],
  ['[ff02::1]', 'IPv6 multicast'],
  ['[2001:db8::1]', 'IPv6 documentation'],
  ['[100::1]', 'discard'],
  ['[4000::1]', 'outside 2000::/3'],
];

const ALLOWED: [host: string, form: string][] = [
  ['8.8.8.8', 'public'],
  ['93.184.216.34', 'public'],
  ['172.32.0.1', 'public, just past 172.16/12'],
  ['100.128.0.1', 'public, just past 100.64/10'],
  ['134744072', 'public, decimal (8.8.8.8)'],
  ['[2606:4700:4700::1111]', 'public IPv6'],
  ['[2001:4860:4860::8888]', 'public IPv6 inside 2001::/16'],
  ['[::ffff:8.8.8.8]', 'IPv4-mapped public'],
  ['[::ffff:808:808]', 'IPv4-mapped public, hexadecimal'],
];

const judge = (host: string) => refusalOf(new URL(`http://${host}/`).hostname);

describe('address policy: global unicast only', () => {
  it.each(REFUSED)('refuses %s (%s)', (host) => {
    expect(judge(host)).not.toBeNull();
  });

  it.each(ALLOWED)('allows %s (%s)', (host) => {
    expect(judge(host)).toBeNull();
  });

  it('judges an IPv4-mapped address as its IPv4 address, and names the range', () => {
    expect(refusalOf('::ffff:7f00:1')).toBe('ipv4Mapped:loopback');
    expect(refusalOf('::ffff:10.0.0.1')).toBe('ipv4Mapped:private');
    expect(refusalOf('100.64.0.1')).toBe('carrierGradeNat');
    expect(refusalOf('[::1]')).toBe('loopback');
  });

  it('refuses what is not an address, and zone ids', () => {
    expect(refusalOf('localhost')).toBe('not_an_address');
    expect(refusalOf('fe80::1%eth0')).not.toBeNull();
    expect(refusalOf('')).toBe('not_an_address');
  });

  it('holds at least 40 vectors', () => {
    expect(REFUSED.length + ALLOWED.length).toBeGreaterThanOrEqual(40);
  });
});

describe('the guarded client makes no connection to a refused host', () => {
  let server: Server;
  let port: number;
  let connections = 0;

  beforeAll(async () => {
    server = createServer((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end('{}');
    });
    server.on('connection', () => {
      connections += 1;
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });

  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('the loopback forms are live: without the guard, each reaches the listener', async () => {
    const open = new GuardedClient({ allowPrivate: true });
    for (const host of ['[::ffff:7f00:1]', '2130706433', '127.1', '[::ffff:127.0.0.1]']) {
      const before = connections;
      const res = await open.fetch(`http://${host}:${port}/probe`);
      expect(res.status, host).toBe(200);
      expect(connections, host).toBe(before + 1);
      open.close();
    }
  });

  it('refuses every form, names that resolve to loopback included, before connecting', async () => {
    const strict = new GuardedClient({
      allowPrivate: false,
      timeoutMs: 2_000,
      // A public-looking name whose resolution is loopback (DNS rebinding's second answer).
      resolve: async (host) => (host === 'public.example' ? [{ address: '127.0.0.1', family: 4 }] : [{ address: '::1', family: 6 }]),
    });
    const system = new GuardedClient({ allowPrivate: false, timeoutMs: 2_000 });
    const before = connections;
    const cases: [GuardedClient, string][] = [
      ...REFUSED.map(([host]) => [strict, host] as [GuardedClient, string]),
      [strict, 'public.example'],
      [system, 'localhost'],
      [system, 'LOCALHOST'],
    ];
    for (const [client, host] of cases) {
      const error = await client.fetch(`http://${host}:${port}/probe`).then(
        () => null,
        (e: unknown) => e,
      );
      expect(error, host).toBeInstanceOf(GuardRefusal);
      expect((error as GuardRefusal).reason, host).toBe('private_address');
    }
    expect(connections - before).toBe(0);
  });
});
