import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aPost, aUser, type TestUser } from '../support/mothers.js';
import type { TestServer } from '../support/server.js';
import type { FedifyPeer } from '../support/fedify-peer.js';
import { FederationWorld } from '../support/federation-world.js';
import { newActivityId, type StrictServer } from '../support/strict-verifier.js';

/**
 * The account's own lifecycle in the fediverse (docs/decisions/0050): a profile edit sends
 * Update(Person) to the remote followers, an account deletion sends Delete(Person) to every inbox
 * that knows the account before its local erasure. Against the Fedify peer and the strict verifier.
 */
let world: FederationWorld;
let server: TestServer;
let peer: FedifyPeer;
let strict: StrictServer;
let origin: string;

const actorOf = (u: { username: string }) => world.actorOf(u);
const inboxOf = (u: { username: string }) => world.inboxOf(u);
const drain = () => world.drain();
const delivered = (type: string, actor: string) => strict.deliveries.filter((d) => d.activity?.type === type && d.activity.actor === actor);
const peerGot = (type: string, actor: string) =>
  peer.received.filter((a) => a.constructor.name === type && (a as any).actorId?.href === actor) as any[];
const strictFollow = async (u: TestUser) => {
  const follow = {
    '@context': 'https://www.w3.org/ns/activitystreams',
    id: newActivityId(strict.origin),
    type: 'Follow',
    actor: strict.actorUrl,
    object: actorOf(u),
  };
  expect((await strict.signedPost(inboxOf(u), follow)).status).toBe(202);
  await drain();
};
const editProfile = (u: TestUser, patch: Record<string, unknown>) => server.api.put('users.php', patch, { token: u.token });

beforeAll(async () => {
  world = await FederationWorld.start();
  ({ server, peer, strict, origin } = world);
});
afterAll(() => world?.close());

describe('a profile edit sends Update(Person)', () => {
  it('to each remote follower, once per inbox, signed as Mastodon checks; carrying the new profile', async () => {
    const ann = await aUser(server.api);
    await strictFollow(ann);
    await peer.follow(actorOf(ann));
    await drain();
    const res = await editProfile(ann, { display_name: 'Ann Edited', bio: 'New bio' });
    expect(res.status).toBe(200);
    await drain();
    const updates = delivered('Update', actorOf(ann));
    expect(updates).toHaveLength(1);
    expect(updates[0].verdict).toEqual({ ok: true, reason: 'verified', keyOwner: actorOf(ann) });
    expect(updates[0].activity.object).toMatchObject({
      id: actorOf(ann),
      type: 'Person',
      name: 'Ann Edited',
      summary: '<p>New bio</p>',
      manuallyApprovesFollowers: false,
    });
    expect(updates[0].activity.to).toBe('as:Public');
    const [fromPeer] = peerGot('Update', actorOf(ann));
    expect(fromPeer, 'the peer verified and received the Update').toBeDefined();
    expect(fromPeer.objectId.href).toBe(actorOf(ann));
  });

  it('not for a field the actor document does not show, and not without remote followers', async () => {
    const bea = await aUser(server.api);
    await strictFollow(bea);
    expect((await editProfile(bea, { location: 'Lyon' })).status).toBe(200);
    const lonely = await aUser(server.api);
    expect((await editProfile(lonely, { display_name: 'Nobody follows me' })).status).toBe(200);
    await drain();
    expect(delivered('Update', actorOf(bea))).toEqual([]);
    expect(delivered('Update', actorOf(lonely))).toEqual([]);
    expect(await server.database.db.selectFrom('federation_queue').select('id').execute()).toEqual([]);
  });

  it('a refused edit sends nothing', async () => {
    const cid = await aUser(server.api);
    await strictFollow(cid);
    expect((await editProfile(cid, { display_name: 'x'.repeat(300) })).status).toBe(400);
    await drain();
    expect(delivered('Update', actorOf(cid))).toEqual([]);
  });
});

describe('switching the account private or public sends Update(Person)', () => {
  const setPrivate = async (u: TestUser, value: boolean) =>
    expect((await server.api.put('user_preferences.php', { privacy_private_account: value }, { token: u.token })).status).toBe(200);

  it('with the new manuallyApprovesFollowers, addressed as the account now posts; a switch to the same value sends nothing', async () => {
    const eve = await aUser(server.api);
    await strictFollow(eve);
    await peer.follow(actorOf(eve));
    await drain();
    await setPrivate(eve, true);
    await drain();
    const [toPrivate] = delivered('Update', actorOf(eve));
    expect(toPrivate.verdict).toEqual({ ok: true, reason: 'verified', keyOwner: actorOf(eve) });
    expect(toPrivate.activity.object).toMatchObject({ id: actorOf(eve), type: 'Person', manuallyApprovesFollowers: true });
    expect(JSON.stringify([toPrivate.activity.to, toPrivate.activity.cc]), 'a private account addresses its followers only').not.toContain(
      'Public',
    );
    const fromPeer = peerGot('Update', actorOf(eve));
    expect(fromPeer, 'the peer verified and received the Update').toHaveLength(1);

    await setPrivate(eve, true);
    await drain();
    expect(delivered('Update', actorOf(eve)), 'already private: nothing changed, nothing sent').toHaveLength(1);

    await setPrivate(eve, false);
    await drain();
    const updates = delivered('Update', actorOf(eve));
    expect(updates).toHaveLength(2);
    expect(updates[1].activity.object).toMatchObject({ manuallyApprovesFollowers: false });
    expect(updates[1].activity.to).toBe('as:Public');
  });

  it('not without remote followers, nor for another preference', async () => {
    const fay = await aUser(server.api);
    await setPrivate(fay, true);
    const gus = await aUser(server.api);
    await strictFollow(gus);
    expect((await server.api.put('user_preferences.php', { privacy_online_status: false }, { token: gus.token })).status).toBe(200);
    await drain();
    expect(delivered('Update', actorOf(fay))).toEqual([]);
    expect(delivered('Update', actorOf(gus))).toEqual([]);
  });
});

describe('an account deletion sends Delete(Person)', () => {
  const deleteAccount = async (u: TestUser) => {
    expect((await server.api.post('delete_account.php', { password: u.password }, { token: u.token })).status).toBe(200);
    await server.mailSettled();
    const mail = server.mailer.sent.findLast((m) => m.to === u.email)!;
    const link = /(http:\/\/\S+\/api\/v1\/delete_account\.php\?token=\S+)/.exec(mail.text)![1];
    expect((await fetch(link)).status).toBe(200);
  };

  it('to its followers and to the accounts it follows, queued before the erasure and verifiable after it', async () => {
    const dan = await aUser(server.api);
    const actor = actorOf(dan);
    await peer.follow(actor);
    expect((await server.api.post('fediverse.php?action=follow_remote', { actor_url: strict.actorUrl }, { token: dan.token })).status).toBe(
      200,
    );
    await drain();
    await deleteAccount(dan);
    // The account is gone here (its actor, its follows, its keys) ...
    const db = server.database.db;
    expect(
      (await server.api.get(`/fediverse/actor.php?username=${dan.username}`, { headers: { Accept: 'application/activity+json' } })).status,
    ).toBe(404);
    expect(await db.selectFrom('federation_keys').select('user_id').where('user_id', '=', dan.id).execute()).toEqual([]);
    expect(await db.selectFrom('remote_followers').select('actor_url').where('user_id', '=', dan.id).execute()).toEqual([]);
    // ... and its farewell, queued with it, still goes out, signed with the key the receivers know.
    await drain();
    const [toStrict] = delivered('Delete', actor);
    expect(toStrict?.verdict).toEqual({ ok: true, reason: 'verified', keyOwner: actor });
    expect(toStrict.activity.object).toBe(actor);
    const [toPeer] = peerGot('Delete', actor);
    expect(toPeer, 'the peer verified and received the Delete').toBeDefined();
    expect(toPeer.objectId.href).toBe(actor);
  });

  it('nothing when no remote account knows it; the deletion works the same', async () => {
    const eve = await aUser(server.api);
    await deleteAccount(eve);
    await drain();
    expect(delivered('Delete', actorOf(eve))).toEqual([]);
    expect((await server.api.get('users.php', { token: eve.token })).status).toBe(401);
  });
});

describe('a local share of a local public post sends Announce (docs/decisions/0050)', () => {
  const share = (u: TestUser, postId: number) => server.api.post('shares.php', { post_id: postId }, { token: u.token });
  const noteOf = (postId: number) => `${origin}/api/v1/posts.php?id=${postId}`;

  it("to the sharer's remote followers, public, naming the post's Note, once however often it is shared", async () => {
    const author = await aUser(server.api);
    const fay = await aUser(server.api);
    await strictFollow(fay);
    const post = await aPost(server.api, author, { content: 'Worth sharing' });
    expect((await share(fay, post.id)).status).toBe(200);
    expect((await share(fay, post.id)).status).toBe(200);
    await drain();
    const announces = delivered('Announce', actorOf(fay));
    expect(announces).toHaveLength(1);
    expect(announces[0].verdict).toEqual({ ok: true, reason: 'verified', keyOwner: actorOf(fay) });
    expect(announces[0].activity).toMatchObject({ object: noteOf(post.id), to: 'as:Public' });
    expect(announces[0].activity.cc).toEqual(expect.arrayContaining([`${origin}/fediverse/followers.php?username=${fay.username}`]));
  });

  it("a private sharer's Announce goes to its followers only", async () => {
    const author = await aUser(server.api);
    const gil = await aUser(server.api);
    await server.database.db.updateTable('users').set({ is_private: 1 }).where('id', '=', gil.id).execute();
    await strictFollow(gil);
    const [request] = (await server.api.get('friends.php?type=pending', { token: gil.token })).body.pending_requests;
    expect((await server.api.post('friends.php', { action: 'accept', request_id: request.request_id }, { token: gil.token })).status).toBe(
      200,
    );
    const post = await aPost(server.api, author, { content: 'Shared quietly' });
    expect((await share(gil, post.id)).status).toBe(200);
    await drain();
    const [announce] = delivered('Announce', actorOf(gil));
    expect(announce?.verdict.ok, announce?.verdict.reason).toBe(true);
    expect(JSON.stringify([announce.activity.to, announce.activity.cc])).not.toContain('Public');
    expect(announce.activity.to).toBe(`${origin}/fediverse/followers.php?username=${gil.username}`);
  });

  it("a private account's post is never announced, whoever shares it", async () => {
    const hid = await aUser(server.api);
    await server.database.db.updateTable('users').set({ is_private: 1 }).where('id', '=', hid.id).execute();
    const ian = await aUser(server.api);
    await strictFollow(ian);
    expect((await server.api.post('follows.php', { user_id: hid.id }, { token: ian.token })).status).toBeLessThan(300);
    const post = await aPost(server.api, hid, { content: 'Followers only' });
    // The follower sees it and shares it here; nothing leaves.
    expect((await share(ian, post.id)).status).toBe(200);
    await drain();
    expect(delivered('Announce', actorOf(ian))).toEqual([]);
  });
});
