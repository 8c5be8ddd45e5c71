import { afterAll, beforeAll, expect, it } from 'vitest';
import { aUser } from '../support/mothers.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { newActivityId, startStrictServer, type StrictServer } from '../support/strict-verifier.js';

/**
 * The SSRF guard in the composed server: without API_FEDERATION_ALLOW_PRIVATE, nothing federation
 * does reaches a loopback address (the peer here listens on 127.0.0.1): not a lookup, not a key
 * fetch for an inbound signature.
 */
let server: TestServer;
let strict: StrictServer;

beforeAll(async () => {
  server = await startTestServer();
  strict = await startStrictServer();
});

afterAll(async () => {
  await strict?.close();
  await server?.close();
});

it('refuses to look up or follow an actor on a private address', async () => {
  const alice = await aUser(server.api);
  const search = await server.api.get(`fediverse.php?action=search_remote&q=${encodeURIComponent(strict.actorUrl)}`, { token: alice.token });
  expect(search.status).toBe(200);
  expect(search.body.items).toEqual([]);
  const follow = await server.api.post('fediverse.php?action=follow_remote', { actor_url: strict.actorUrl }, { token: alice.token });
  expect(follow.status).toBe(404);
  expect(follow.body.code).toBe('remote_actor_not_found');
  const profile = await server.api.get(`fediverse.php?action=remote_profile&q=${encodeURIComponent(strict.actorUrl)}`, { token: alice.token });
  expect(profile.status).toBe(404);
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
