import { afterAll, beforeAll, expect, it } from 'vitest';
import type { ApiResponse } from '../support/client.js';
import { aUser } from '../support/mothers.js';
import type { TestServer } from '../support/server.js';
import { FederationWorld } from '../support/federation-world.js';
import { newActivityId, type StrictServer } from '../support/strict-verifier.js';

/**
 * Federation's writes under 20 identical requests at once (on MariaDB they really overlap): exact
 * rows, one activity out per change, no 500.
 */
let world: FederationWorld;
let server: TestServer;
let strict: StrictServer;
let origin: string;
const N = 20;

beforeAll(async () => {
  world = await FederationWorld.start({ peer: false });
  ({ server, strict, origin } = world);
});
afterAll(() => world?.close());

async function burst(request: () => Promise<ApiResponse | Response>): Promise<number[]> {
  const answers = await Promise.all(Array.from({ length: N }, request));
  const statuses = answers.map((a) => a.status);
  expect(
    statuses.filter((s) => s >= 500),
    'answers of 500 and above',
  ).toEqual([]);
  return statuses;
}

const drain = () => world.drain();
const sent = (type: string, actor: string) => strict.deliveries.filter((d) => d.activity?.type === type && d.activity.actor === actor);

it('20 identical follow_remote store one follow and send one Follow; 20 unfollow_remote send one Undo', async () => {
  const u = await aUser(server.api);
  const actor = `${origin}/fediverse/actor.php?username=${u.username}`;
  const follows = await burst(() =>
    server.api.post('fediverse.php?action=follow_remote', { actor_url: strict.actorUrl }, { token: u.token }),
  );
  expect(follows).toEqual(Array(N).fill(200));
  const rows = await server.database.db.selectFrom('remote_following').select('follow_id').where('user_id', '=', u.id).execute();
  expect(rows).toHaveLength(1);
  await drain();
  expect(sent('Follow', actor).map((d) => d.activity.id)).toEqual([rows[0].follow_id]);

  const unfollows = await burst(() =>
    server.api.delete('fediverse.php?action=unfollow_remote', { actor_url: strict.actorUrl }, { token: u.token }),
  );
  expect(unfollows).toEqual(Array(N).fill(200));
  await drain();
  expect(sent('Undo', actor)).toHaveLength(1);
  expect(await server.database.db.selectFrom('remote_following').select('follow_id').where('user_id', '=', u.id).execute()).toEqual([]);
});

it('20 identical deliveries of one Follow leave one remote follower', async () => {
  const u = await aUser(server.api);
  const follow = {
    '@context': 'https://www.w3.org/ns/activitystreams',
    id: newActivityId(strict.origin),
    type: 'Follow',
    actor: strict.actorUrl,
    object: `${origin}/fediverse/actor.php?username=${u.username}`,
  };
  const statuses = await burst(() => strict.signedPost(`${origin}/fediverse/inbox/${u.username}`, follow));
  expect(statuses.every((s) => s === 202)).toBe(true);
  await drain();
  const rows = await server.database.db
    .selectFrom('remote_followers')
    .select(['actor_url', 'follow_id'])
    .where('user_id', '=', u.id)
    .execute();
  expect(rows).toEqual([{ actor_url: strict.actorUrl, follow_id: follow.id }]);
  expect((await server.api.get('users.php', { token: u.token })).body.fediverse_followers_count).toBe(1);
});

it('workers draining the queue at once (as several instances do) deliver each activity once', async () => {
  const u = await aUser(server.api);
  const actor = `${origin}/fediverse/actor.php?username=${u.username}`;
  await strict.signedPost(`${origin}/fediverse/inbox/${u.username}`, {
    '@context': 'https://www.w3.org/ns/activitystreams',
    id: newActivityId(strict.origin),
    type: 'Follow',
    actor: strict.actorUrl,
    object: actor,
  });
  await drain();
  for (let i = 0; i < 10; i++) expect((await server.api.post('posts.php', { content: `post ${i}` }, { token: u.token })).status).toBe(200);
  await Promise.all(Array.from({ length: 4 }, () => server.runJob('federation-queue')));
  await drain();
  const creates = sent('Create', actor);
  expect(creates).toHaveLength(10);
  expect(new Set(creates.map((d) => d.activity.id)).size).toBe(10);
  expect(creates.every((d) => d.verdict.ok)).toBe(true);
});
