import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aPost, aUser, type TestUser } from '../support/mothers.js';
import type { TestServer } from '../support/server.js';
import type { FedifyPeer } from '../support/fedify-peer.js';
import { FederationWorld } from '../support/federation-world.js';
import { newActivityId, type StrictServer } from '../support/strict-verifier.js';

/**
 * Follow approval (docs/decisions/0210): a private account's remote Follow waits in friends.php's
 * pending list until the account accepts (Accept, and the follower is stored) or rejects (Reject);
 * a public account accepts at once. Against the Fedify peer and the strict verifier.
 */
let world: FederationWorld;
let server: TestServer;
let peer: FedifyPeer;
let strict: StrictServer;
let origin: string;

const AP = { Accept: 'application/activity+json' };
const actorOf = (u: { username: string }) => world.actorOf(u);
const inboxOf = (u: { username: string }) => world.inboxOf(u);
const drain = () => world.drain();
const makePrivate = (u: TestUser) => server.database.db.updateTable('users').set({ is_private: 1 }).where('id', '=', u.id).execute();
const pending = async (u: TestUser, query = 'type=pending') => (await server.api.get(`friends.php?${query}`, { token: u.token })).body;
const strictFollow = async (u: TestUser) => {
  const id = newActivityId(strict.origin);
  const follow = { '@context': 'https://www.w3.org/ns/activitystreams', id, type: 'Follow', actor: strict.actorUrl, object: actorOf(u) };
  expect((await strict.signedPost(inboxOf(u), follow)).status).toBe(202);
  await drain();
  return follow;
};
const delivered = (type: string, u: TestUser) =>
  strict.deliveries.filter((d) => d.activity?.type === type && d.activity.actor === actorOf(u));

beforeAll(async () => {
  world = await FederationWorld.start();
  ({ server, peer, strict, origin } = world);
});
afterAll(() => world?.close());

describe('the actor says whether it approves followers', () => {
  it('manuallyApprovesFollowers is true for a private account, false for a public one', async () => {
    const pub = await aUser(server.api);
    const priv = await aUser(server.api);
    await makePrivate(priv);
    expect((await server.api.get(`/fediverse/actor.php?username=${pub.username}`, { headers: AP })).body.manuallyApprovesFollowers).toBe(
      false,
    );
    expect((await server.api.get(`/fediverse/actor.php?username=${priv.username}`, { headers: AP })).body.manuallyApprovesFollowers).toBe(
      true,
    );
  });
});

describe('a Fedify peer asks to follow a private account', () => {
  let grace: TestUser;
  let followId: string;
  let requestId: number;

  beforeAll(async () => {
    grace = await aUser(server.api);
    await makePrivate(grace);
    followId = await peer.follow(actorOf(grace));
    await drain();
  });

  it('is a pending request in friends.php, in the local shape with the remote account added; no Accept yet, no follower', async () => {
    expect(peer.received.filter((a) => a.constructor.name === 'Accept' && (a as any).actorId?.href === actorOf(grace))).toEqual([]);
    const body = await pending(grace);
    expect(body.pending_requests).toEqual([
      expect.objectContaining({
        id: expect.any(Number),
        request_id: expect.any(Number),
        username: `peer@${new URL(peer.origin).host}`,
        display_name: 'Fedify Peer',
        avatar: 'default.svg',
        bio: '<p>A test peer</p>',
        is_remote: true,
        account_type: 'remote',
        actor_url: peer.actorUrl,
        handle: `@peer@${new URL(peer.origin).host}`,
      }),
    ]);
    expect(body.data).toEqual(body.pending_requests);
    requestId = body.pending_requests[0].request_id;
    expect(requestId).toBeLessThan(0);
    expect(body.pending_requests[0].id).toBe(requestId);
    // type=all shows it beside the friends.
    expect((await pending(grace, 'type=all')).pending_requests.map((r: any) => r.request_id)).toEqual([requestId]);
    const followers = await server.api.get('fediverse.php?action=followers', { token: grace.token });
    expect(followers.body.followers).toEqual([]);
  });

  it('notifies the account with a friend_request, as a local request does, linked to the pending list', async () => {
    const list = (await server.api.get('notifications.php', { token: grace.token })).body.notifications;
    const host = new URL(peer.origin).host;
    expect(list).toEqual([
      expect.objectContaining({
        type: 'friend_request',
        content: `@peer@${host} asked to follow you`,
        link: 'friends.php?type=pending',
        from_user_id: expect.any(Number),
        is_read: expect.anything(),
      }),
    ]);
  });

  it('another account can neither accept nor reject it (404), and bad ids are 400; nothing changes', async () => {
    const mallory = await aUser(server.api);
    for (const action of ['accept', 'reject']) {
      const res = await server.api.post('friends.php', { action, request_id: requestId }, { token: mallory.token });
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('friend_request_not_found');
    }
    for (const request_id of [0, 1.5, 'x', null]) {
      expect((await server.api.post('friends.php', { action: 'accept', request_id }, { token: grace.token })).status).toBe(400);
    }
    expect((await pending(grace)).pending_requests).toHaveLength(1);
  });

  it('accepting it sends Accept(Follow) naming the Follow, stores the follower, and empties the list', async () => {
    const res = await server.api.post('friends.php', { action: 'accept', request_id: requestId }, { token: grace.token });
    expect(res.status).toBe(200);
    await drain();
    const accept = peer.received.find((a) => a.constructor.name === 'Accept' && (a as any).actorId?.href === actorOf(grace)) as any;
    expect(accept, 'Accept received by the peer').toBeDefined();
    expect(accept.objectId.href).toBe(followId);
    expect((await pending(grace)).pending_requests).toEqual([]);
    const followers = await server.api.get('fediverse.php?action=followers', { token: grace.token });
    expect(followers.body.followers.map((f: any) => f.actor_url)).toEqual([peer.actorUrl]);
    // Answered: a second answer finds nothing.
    expect((await server.api.post('friends.php', { action: 'reject', request_id: requestId }, { token: grace.token })).status).toBe(404);
  });
});

describe("a private account's requests under Mastodon's rules (strict verifier)", () => {
  it('rejecting sends a Reject(Follow) that passes the strict verifier; no follower is stored', async () => {
    const ivy = await aUser(server.api);
    await makePrivate(ivy);
    const follow = await strictFollow(ivy);
    expect(delivered('Accept', ivy)).toEqual([]);
    const [request] = (await pending(ivy)).pending_requests;
    expect(request).toMatchObject({ actor_url: strict.actorUrl, handle: `@strict@${new URL(strict.origin).host}`, is_remote: true });
    expect((await server.api.post('friends.php', { action: 'reject', request_id: request.request_id }, { token: ivy.token })).status).toBe(
      200,
    );
    await drain();
    const [reject] = delivered('Reject', ivy);
    expect(reject?.verdict).toEqual({ ok: true, reason: 'verified', keyOwner: actorOf(ivy) });
    expect(reject.activity.object).toMatchObject({ id: follow.id, type: 'Follow', actor: strict.actorUrl });
    expect(delivered('Accept', ivy)).toEqual([]);
    expect((await server.api.get('fediverse.php?action=followers', { token: ivy.token })).body.followers).toEqual([]);
    expect((await pending(ivy)).pending_requests).toEqual([]);
  });

  it('an accepted follower gets the private posts (followers only); Accept passes the strict verifier', async () => {
    const jo = await aUser(server.api);
    await makePrivate(jo);
    const follow = await strictFollow(jo);
    const [request] = (await pending(jo)).pending_requests;
    expect((await server.api.post('friends.php', { action: 'accept', request_id: request.request_id }, { token: jo.token })).status).toBe(
      200,
    );
    await drain();
    const [accept] = delivered('Accept', jo);
    expect(accept?.verdict.ok, accept?.verdict.reason).toBe(true);
    expect(accept.activity.object).toMatchObject({ id: follow.id, type: 'Follow' });
    await aPost(server.api, jo, { content: 'For my followers' });
    await drain();
    const [create] = delivered('Create', jo);
    expect(create?.verdict.ok, create?.verdict.reason).toBe(true);
    expect(create.activity.object.content).toContain('For my followers');
    expect(JSON.stringify([create.activity.to, create.activity.cc])).not.toContain('#Public');
  });

  it('a repeated Follow refreshes the request without a second notice; the notice stays after the answer, as a local one does', async () => {
    const pia = await aUser(server.api);
    await makePrivate(pia);
    await strictFollow(pia);
    await strictFollow(pia);
    const notices = async () =>
      ((await server.api.get('notifications.php', { token: pia.token })).body.notifications as any[]).filter(
        (n) => n.type === 'friend_request',
      );
    expect(await notices()).toHaveLength(1);
    const [request] = (await pending(pia)).pending_requests;
    expect((await server.api.post('friends.php', { action: 'accept', request_id: request.request_id }, { token: pia.token })).status).toBe(
      200,
    );
    expect(await notices()).toHaveLength(1);
  });

  it('a public account is followed at once: no request, no notice', async () => {
    const quinn = await aUser(server.api);
    await strictFollow(quinn);
    expect((await server.api.get('notifications.php', { token: quinn.token })).body.notifications).toEqual([]);
  });

  it('before the answer, a private post goes to no one', async () => {
    const ned = await aUser(server.api);
    await makePrivate(ned);
    await strictFollow(ned);
    await aPost(server.api, ned, { content: 'Not yet' });
    await drain();
    expect(delivered('Create', ned)).toEqual([]);
  });

  it('20 concurrent accepts of one request store one follower, queue one Accept, and answer no 500', async () => {
    const ola = await aUser(server.api);
    await makePrivate(ola);
    await strictFollow(ola);
    const [request] = (await pending(ola)).pending_requests;
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        server.api.post('friends.php', { action: 'accept', request_id: request.request_id }, { token: ola.token }),
      ),
    );
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s >= 500)).toEqual([]);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    // The others found it answered (409) or gone (404).
    expect(statuses.filter((s) => s !== 200).every((s) => s === 409 || s === 404)).toBe(true);
    const rows = await server.database.db.selectFrom('remote_followers').select('actor_url').where('user_id', '=', ola.id).execute();
    expect(rows).toEqual([{ actor_url: strict.actorUrl }]);
    await drain();
    expect(delivered('Accept', ola)).toHaveLength(1);
  });

  it('Undo(Follow) of a pending request removes it, whether it embeds the Follow or names it by id', async () => {
    const kay = await aUser(server.api);
    await makePrivate(kay);
    const first = await strictFollow(kay);
    expect((await pending(kay)).pending_requests).toHaveLength(1);
    const undo = (object: unknown) => ({
      '@context': 'https://www.w3.org/ns/activitystreams',
      id: newActivityId(strict.origin),
      type: 'Undo',
      actor: strict.actorUrl,
      object,
    });
    expect((await strict.signedPost(inboxOf(kay), undo(first))).status).toBe(202);
    await drain();
    expect((await pending(kay)).pending_requests).toEqual([]);

    const second = await strictFollow(kay);
    expect((await pending(kay)).pending_requests).toHaveLength(1);
    expect((await strict.signedPost(inboxOf(kay), undo(second.id))).status).toBe(202);
    await drain();
    expect((await pending(kay)).pending_requests).toEqual([]);
    expect(delivered('Accept', kay)).toEqual([]);
  });

  it('remote requests come first, then local ones, paged as one list', async () => {
    const lee = await aUser(server.api);
    await makePrivate(lee);
    const friend = await aUser(server.api);
    expect((await server.api.post('friends.php', { action: 'send', user_id: lee.id }, { token: friend.token })).status).toBe(200);
    await strictFollow(lee);
    const all = await pending(lee);
    expect(all.pending_requests.map((r: any) => r.is_remote === true)).toEqual([true, false]);
    expect(all.pending_requests[1]).toMatchObject({ id: friend.id, username: friend.username });
    expect(all.meta).toMatchObject({ total: 2, total_pages: 1 });
    const p1 = await pending(lee, 'type=pending&page=1&per_page=1');
    const p2 = await pending(lee, 'type=pending&page=2&per_page=1');
    expect(p1.pending_requests.map((r: any) => r.actor_url ?? r.username)).toEqual([strict.actorUrl]);
    expect(p2.pending_requests.map((r: any) => r.username)).toEqual([friend.username]);
    expect(p2.meta).toMatchObject({ total: 2, total_pages: 2 });
    // A local request is still answered by its own (positive) id.
    expect(
      (await server.api.post('friends.php', { action: 'accept', request_id: all.pending_requests[1].request_id }, { token: lee.token }))
        .status,
    ).toBe(200);
  });

  it('a public account still accepts at once, with no pending request', async () => {
    const max = await aUser(server.api);
    await strictFollow(max);
    expect(delivered('Accept', max)).toHaveLength(1);
    expect((await pending(max)).pending_requests).toEqual([]);
  });
});
