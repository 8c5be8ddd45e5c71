import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aUser } from '../support/mothers.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { newActivityId, startStrictServer, type StrictServer } from '../support/strict-verifier.js';

/**
 * The SSRF guard in the composed server (docs/decisions/0111): without API_FEDERATION_ALLOW_PRIVATE,
 * nothing federation does reaches a loopback address: not a lookup by URL or handle (in any of the
 * forms of issue 27's sweep, which reached a loopback listener through Fedify's own WebFinger
 * fallback), not a key fetch for an inbound signature. Listeners on 127.0.0.1 and ::1 count every
 * connection they accept: none may arrive, and each request answers 400 `remote_address_refused`.
 */
let server: TestServer;
let strict: StrictServer;
let v4: Server;
let v6: Server;
let port4 = 0;
let port6 = 0;
let connections = 0;
/** Requests the listeners answered (a kept-alive connection carries several). */
let requests = 0;

function countingListener(host: string): Promise<Server> {
  const listener = createServer((req, res) => {
    requests += 1;
    // What a reachable peer would answer: a WebFinger document and an actor (never reached when guarded).
    const origin = `http://${req.headers.host}`;
    res.writeHead(200, {
      'Content-Type': req.url?.startsWith('/.well-known/webfinger') ? 'application/jrd+json' : 'application/activity+json',
    });
    res.end(
      req.url?.startsWith('/.well-known/webfinger')
        ? JSON.stringify({ links: [{ rel: 'self', type: 'application/activity+json', href: `${origin}/users/x` }] })
        : JSON.stringify({
            '@context': 'https://www.w3.org/ns/activitystreams',
            id: `${origin}/users/x`,
            type: 'Person',
            inbox: `${origin}/inbox`,
            preferredUsername: 'x',
          }),
    );
  });
  listener.on('connection', () => {
    connections += 1;
  });
  return new Promise((resolve, reject) => {
    listener.once('error', reject);
    listener.listen(0, host, () => resolve(listener));
  });
}

beforeAll(async () => {
  server = await startTestServer();
  strict = await startStrictServer();
  v4 = await countingListener('127.0.0.1');
  v6 = await countingListener('::1');
  port4 = (v4.address() as AddressInfo).port;
  port6 = (v6.address() as AddressInfo).port;
});

afterAll(async () => {
  await strict?.close();
  await server?.close();
  for (const listener of [v4, v6]) if (listener) await new Promise<void>((resolve) => listener.close(() => resolve()));
});

/** Hosts that reach the 127.0.0.1 listener when nothing refuses them (the IPv6 ones through IPv4 mapping). */
const TO_V4 = [
  '127.0.0.1',
  '127.1',
  '2130706433',
  '0x7f000001',
  '0177.0.0.1',
  '017700000001',
  '0x7f.1',
  '0.0.0.0',
  'localhost',
  '[::ffff:127.0.0.1]',
  '[::ffff:7f00:1]',
  '[0:0:0:0:0:ffff:7f00:1]',
  '[::FFFF:7F00:0001]',
  '[0000:0000:0000:0000:0000:ffff:127.0.0.1]',
];
/** Hosts that reach the ::1 listener when nothing refuses them. */
const TO_V6 = ['[::1]', '[0:0:0:0:0:0:0:1]', '[::]'];
/** Hosts that reach no listener here but private space elsewhere: refused by the policy, not by the network. */
const ELSEWHERE = [
  '[::ffff:a00:1]',
  '100.64.0.1',
  '10.0.0.1',
  '169.254.169.254',
  '[::127.0.0.1]',
  '[::ffff:0:7f00:1]',
  '[64:ff9b::7f00:1]',
  '[64:ff9b:1::a00:1]',
  '[2002:7f00:1::]',
  '[2001:0:4136:e378:8000:63bf:80ff:fffe]',
  '[fd00::1]',
  '[fe80::1]',
  '[ff02::1]',
  '172.16.0.1',
  '192.168.1.1',
  '198.18.0.1',
  '127.5.6.7',
];

/** The hosts a handle (WebFinger) may name: no brackets, so no IPv6. */
const HANDLE_HOSTS = [
  '127.0.0.1',
  '127.1',
  '2130706433',
  '0x7f000001',
  '0x7f.1',
  '0177.0.0.1',
  '017700000001',
  'localhost',
  '0',
  '100.64.0.1',
];

describe('lookups of private destinations make no connection and answer 400', () => {
  it('remote_profile, search_remote and follow_remote, by actor URL and by handle', async () => {
    const alice = await aUser(server.api);
    const targets = [
      ...TO_V4.map((host) => `http://${host}:${port4}/users/x`),
      ...TO_V6.map((host) => `http://${host}:${port6}/users/x`),
      ...ELSEWHERE.map((host) => `http://${host}:${port4}/users/x`),
      ...HANDLE_HOSTS.map((host) => `x@${host}:${port4}`),
    ];
    expect(targets.length).toBeGreaterThanOrEqual(40);
    for (const q of targets) {
      const handle = !q.startsWith('http');
      const answers = [
        await server.api.get(`fediverse.php?action=remote_profile&q=${encodeURIComponent(q)}`, { token: alice.token }),
        await server.api.get(`fediverse.php?action=search_remote&q=${encodeURIComponent(q)}`, { token: alice.token }),
        await server.api.post('fediverse.php?action=follow_remote', handle ? { handle: q } : { actor_url: q }, { token: alice.token }),
      ];
      for (const [i, res] of answers.entries()) {
        expect(res.status, `${['remote_profile', 'search_remote', 'follow_remote'][i]} ${q}`).toBe(400);
        expect(res.body.code, q).toBe('remote_address_refused');
        expect(res.body.success).toBe(false);
      }
    }
    expect(connections).toBe(0);
    expect(requests).toBe(0);
    // Nothing was stored: no remote account, no follow.
    const following = await server.api.get('fediverse.php?action=following', { token: alice.token });
    expect(following.body.following).toEqual([]);
  });

  it('the listeners are reachable: with API_FEDERATION_ALLOW_PRIVATE=true the same lookups connect', async () => {
    const open = await startTestServer({ env: { API_FEDERATION_ALLOW_PRIVATE: 'true' } });
    try {
      const carol = await aUser(open.api);
      for (const q of [
        `http://[::ffff:7f00:1]:${port4}/users/x`,
        `http://2130706433:${port4}/users/x`,
        `http://[::]:${port6}/users/x`,
        `x@127.1:${port4}`,
      ]) {
        const before = requests;
        const res = await open.api.get(`fediverse.php?action=remote_profile&q=${encodeURIComponent(q)}&include_posts=0`, {
          token: carol.token,
        });
        expect(res.status, q).toBe(200);
        expect(requests, q).toBeGreaterThan(before);
      }
    } finally {
      await open.close();
    }
    // A second server (its own database, migrated) takes a while on MariaDB.
  }, 120_000);

  it('the strict peer (a signing server on loopback) is refused the same way', async () => {
    const alice = await aUser(server.api);
    const search = await server.api.get(`fediverse.php?action=search_remote&q=${encodeURIComponent(strict.actorUrl)}`, {
      token: alice.token,
    });
    expect(search.status).toBe(400);
    expect(search.body.code).toBe('remote_address_refused');
    const follow = await server.api.post('fediverse.php?action=follow_remote', { actor_url: strict.actorUrl }, { token: alice.token });
    expect(follow.status).toBe(400);
    expect(follow.body.code).toBe('remote_address_refused');
    const profile = await server.api.get(`fediverse.php?action=remote_profile&q=${encodeURIComponent(strict.actorUrl)}`, {
      token: alice.token,
    });
    expect(profile.status).toBe(400);
  });
});

it('does not fetch the signing key of an inbound delivery from a private address: 401', async () => {
  const bob = await aUser(server.api);
  const res = await strict.signedPost(`${server.url}/fediverse/inbox/${bob.username}`, {
    '@context': 'https://www.w3.org/ns/activitystreams',
    id: newActivityId(strict.origin),
    type: 'Follow',
    actor: strict.actorUrl,
    object: `http://plaza.test/fediverse/actor.php?username=${bob.username}`,
  });
  expect(res.status).toBe(401);
});
