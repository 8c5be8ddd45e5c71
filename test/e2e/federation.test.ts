import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aPost, aUser, type TestUser } from '../support/mothers.js';
import type { TestServer } from '../support/server.js';
import type { FedifyPeer } from '../support/fedify-peer.js';
import { FederationWorld } from '../support/federation-world.js';
import { newActivityId, type StrictServer } from '../support/strict-verifier.js';

/**
 * Federation end to end on loopback: Plaza, a separate Fedify server (the peer) and a strict
 * verifier of Mastodon's signature rules. Plaza's public URL is its real loopback address, and its
 * guarded client may reach loopback (API_FEDERATION_ALLOW_PRIVATE=true).
 */
let world: FederationWorld;
let server: TestServer;
let peer: FedifyPeer;
let strict: StrictServer;
let origin: string;
let domain: string;

const AP = { Accept: 'application/activity+json' };
const actorOf = (u: { username: string }) => world.actorOf(u);
const inboxOf = (u: { username: string }) => world.inboxOf(u);
const drain = () => world.drain();
const types = (activities: { constructor: { name: string } }[]) => activities.map((a) => a.constructor.name);

beforeAll(async () => {
  world = await FederationWorld.start();
  ({ server, peer, strict, origin, domain } = world);
});
afterAll(() => world?.close());

describe('public documents', () => {
  it('WebFinger finds a local user by acct: and names the actor; unknown users are 404', async () => {
    const alice = await aUser(server.api);
    const res = await server.api.get(`/.well-known/webfinger?resource=acct:${alice.username}@${domain}`);
    expect(res.status).toBe(200);
    expect(res.body.subject).toBe(`acct:${alice.username}@${domain}`);
    const self = res.body.links.find((l: any) => l.rel === 'self');
    expect(self).toMatchObject({ type: 'application/activity+json', href: actorOf(alice) });
    expect((await server.api.get(`/.well-known/webfinger?resource=acct:nobody_here@${domain}`)).status).toBe(404);
  });

  it('serves the actor as a Person for activity+json and ld+json, with its key', async () => {
    const alice = await aUser(server.api);
    for (const accept of ['application/activity+json', 'application/ld+json; profile="https://www.w3.org/ns/activitystreams"']) {
      const res = await server.api.get(`/fediverse/actor.php?username=${alice.username}`, { headers: { Accept: accept } });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toContain('application/activity+json');
      expect(res.body).toMatchObject({
        id: actorOf(alice),
        type: 'Person',
        preferredUsername: alice.username,
        name: alice.username,
        inbox: inboxOf(alice),
        outbox: `${origin}/fediverse/outbox.php?username=${alice.username}`,
        followers: `${origin}/fediverse/followers.php?username=${alice.username}`,
        following: `${origin}/fediverse/following.php?username=${alice.username}`,
        endpoints: { sharedInbox: `${origin}/fediverse/inbox` },
        publicKey: { id: `${actorOf(alice)}#main-key`, owner: actorOf(alice), publicKeyPem: expect.stringContaining('BEGIN PUBLIC KEY') },
      });
    }
    // One key pair per user: the second fetch shows the same key.
    const again = await server.api.get(`/fediverse/actor.php?username=${alice.username}`, { headers: AP });
    const first = await server.api.get(`/fediverse/actor.php?username=${alice.username}`, { headers: AP });
    expect(again.body.publicKey.publicKeyPem).toBe(first.body.publicKey.publicKeyPem);
    expect((await server.api.get('/fediverse/actor.php?username=nobody_here', { headers: AP })).status).toBe(404);
    expect((await server.api.get('/fediverse/actor.php', { headers: AP })).status).toBe(404);
  });

  it('NodeInfo is discoverable, and index.php lists the inbox paths', async () => {
    const wk = await server.api.get('/.well-known/nodeinfo');
    expect(wk.status).toBe(200);
    const href = wk.body.links[0].href as string;
    const doc = await server.api.get(href.replace(origin, ''));
    expect(doc.status).toBe(200);
    expect(doc.body).toMatchObject({
      software: { name: 'plaza' },
      protocols: ['activitypub'],
      usage: { users: { total: expect.any(Number) } },
    });
    const index = await server.api.get('index.php');
    expect(index.body.public_paths).toMatchObject({ inbox: '/fediverse/inbox/{username}', shared_inbox: '/fediverse/inbox' });
  });
});

describe('a Fedify peer follows a Plaza user', () => {
  let alice: TestUser;
  let followId: string;

  beforeAll(async () => {
    alice = await aUser(server.api);
    followId = await peer.follow(actorOf(alice));
    await drain();
  });

  it('receives a signed Accept(Follow) and is listed as a remote follower', async () => {
    const accept = peer.received.find((a) => a.constructor.name === 'Accept') as any;
    expect(accept, `peer received ${types(peer.received as any)}`).toBeDefined();
    expect(accept.actorId.href).toBe(actorOf(alice));
    expect(accept.objectId.href).toBe(followId);

    const list = await server.api.get('fediverse.php?action=followers', { token: alice.token });
    expect(list.status).toBe(200);
    expect(list.body.followers).toEqual([
      expect.objectContaining({
        actor_url: peer.actorUrl,
        username: 'peer',
        handle: `@peer@${new URL(peer.origin).host}`,
        is_remote: true,
        account_type: 'remote',
      }),
    ]);
    expect(list.body.meta).toEqual({ current_page: 1, per_page: 20, total: 1, total_pages: 1 });
    const me = await server.api.get('users.php', { token: alice.token });
    expect(me.body).toMatchObject({ fediverse_followers_count: 1, fediverse_following_count: 0 });
    const profile = await server.api.get('fediverse.php?action=profile', { token: alice.token });
    expect(profile.body).toMatchObject({
      user_id: alice.id,
      username: alice.username,
      actor_id: actorOf(alice),
      fediverse_handle: `@${alice.username}@${domain}`,
      fediverse_active: true,
      followers_count: 1,
      following_count: 0,
      is_remote: false,
      account_type: 'local',
    });
    const stranger = await aUser(server.api);
    const seen = await server.api.get(`fediverse.php?action=profile&user_id=${alice.id}`, { token: stranger.token });
    expect(seen.body).toMatchObject({ user_id: alice.id, followers_count: 1 });
    expect(
      (await server.api.get(`fediverse.php?action=followers&user_id=${alice.id}`, { token: stranger.token })).body.followers,
    ).toHaveLength(1);
    expect((await server.api.get('fediverse.php?action=followers&user_id=999999', { token: stranger.token })).status).toBe(404);
    expect((await server.api.get('fediverse.php?action=profile')).status).toBe(401);
    const followers = await server.api.get(`/fediverse/followers.php?username=${alice.username}`, { headers: AP });
    expect(followers.body).toMatchObject({ type: 'OrderedCollection', totalItems: 1 });
    const page = await server.api.get(`/fediverse/followers.php?username=${alice.username}&page=1`, { headers: AP });
    expect(page.body).toMatchObject({ type: 'OrderedCollectionPage', orderedItems: [peer.actorUrl] });
  });

  it('receives Create(Note) when the user posts, then Update and Delete', async () => {
    const before = peer.received.length;
    const post = await aPost(server.api, alice, { content: 'Hello fediverse' });
    await drain();
    const create = peer.received.slice(before).find((a) => a.constructor.name === 'Create') as any;
    expect(create, `peer received ${types(peer.received.slice(before) as any)}`).toBeDefined();
    const note = await create.getObject();
    expect(String(note.content)).toContain('Hello fediverse');
    expect(note.attributionId.href).toBe(actorOf(alice));
    expect(create.toIds.map((u: URL) => u.href)).toContain('https://www.w3.org/ns/activitystreams#Public');

    expect((await server.api.put(`posts.php?id=${post.id}`, { content: 'Hello again' }, { token: alice.token })).status).toBe(200);
    await drain();
    expect(types(peer.received.slice(before) as any)).toContain('Update');
    expect((await server.api.delete(`posts.php?id=${post.id}`, undefined, { token: alice.token })).status).toBe(200);
    await drain();
    expect(types(peer.received.slice(before) as any)).toContain('Delete');

    const outbox = await server.api.get(`/fediverse/outbox.php?username=${alice.username}`, { headers: AP });
    expect(outbox.body).toMatchObject({ type: 'OrderedCollection', totalItems: 0 });
  });
});

describe("Mastodon's signature rules (strict verifier)", () => {
  it('a strictly signed Follow is accepted, and the Accept and Create sent back pass the strict verifier', async () => {
    const carol = await aUser(server.api);
    const followId = newActivityId(strict.origin);
    const res = await strict.signedPost(inboxOf(carol), {
      '@context': 'https://www.w3.org/ns/activitystreams',
      id: followId,
      type: 'Follow',
      actor: strict.actorUrl,
      object: actorOf(carol),
    });
    expect(res.status).toBe(202);
    await drain();
    const accept = strict.deliveries.find((d) => d.activity?.type === 'Accept');
    expect(accept?.verdict).toEqual({ ok: true, reason: 'verified', keyOwner: actorOf(carol) });
    expect(accept?.activity.object).toMatchObject({ id: followId, type: 'Follow', actor: strict.actorUrl });

    await aPost(server.api, carol, { content: 'Strictly signed' });
    await drain();
    const create = strict.deliveries.find((d) => d.activity?.type === 'Create');
    expect(create?.verdict.ok, create?.verdict.reason).toBe(true);
    expect(create?.activity.object.content).toContain('Strictly signed');
    expect(strict.deliveries.every((d) => d.verdict.ok)).toBe(true);
  });

  it('the strict verifier itself refuses a tampered body, a wrong key, a stale Date and a missing header', async () => {
    const { verifyStrictly, aStrangerKeyPem } = await import('../support/strict-verifier.js');
    const { createHash, createSign } = await import('node:crypto');
    // Signed with a key that is not the strict actor's: each check below fails before, or at, the signature.
    const sign = (body: string, date: Date, names = ['(request-target)', 'host', 'date', 'digest']) => {
      const digest = `SHA-256=${createHash('sha256').update(body).digest('base64')}`;
      const values: Record<string, string> = { '(request-target)': 'post /inbox', host: 'x.example', date: date.toUTCString(), digest };
      const signer = createSign('RSA-SHA256');
      signer.update(names.map((n) => `${n}: ${values[n]}`).join('\n'));
      return {
        ...values,
        signature: `keyId="${strict.keyId}",headers="${names.join(' ')}",signature="${signer.sign(aStrangerKeyPem(), 'base64')}"`,
      };
    };
    const body = JSON.stringify({ type: 'Create', actor: strict.actorUrl });
    const stale = sign(body, new Date(Date.now() - 13 * 3600_000));
    expect((await verifyStrictly('POST', '/inbox', stale, Buffer.from(body))).reason).toBe('Date missing or outside 12 hours');
    const noHost = sign(body, new Date(), ['(request-target)', 'date', 'digest']);
    expect((await verifyStrictly('POST', '/inbox', noHost, Buffer.from(body))).reason).toBe('host not signed');
    const wrongKey = sign(body, new Date());
    expect((await verifyStrictly('POST', '/inbox', wrongKey, Buffer.from(body))).reason).toBe('signature does not verify');
    expect((await verifyStrictly('POST', '/inbox', wrongKey, Buffer.from(`${body} `))).reason).toBe('digest mismatch');
    expect((await verifyStrictly('POST', '/inbox', { ...wrongKey, digest: undefined }, Buffer.from(body))).reason).toBe('no Digest header');
  });
});

describe('inbound verification', () => {
  let dave: TestUser;
  const follow = () => ({
    '@context': 'https://www.w3.org/ns/activitystreams',
    id: newActivityId(strict.origin),
    type: 'Follow',
    actor: strict.actorUrl,
    object: actorOf(dave),
  });
  beforeAll(async () => {
    dave = await aUser(server.api);
  });

  it('refuses unsigned, tampered, wrongly keyed, stale and incompletely signed deliveries with 401', async () => {
    const { aStrangerKeyPem } = await import('../support/strict-verifier.js');
    const unsigned = await fetch(inboxOf(dave), {
      method: 'POST',
      headers: { 'Content-Type': 'application/activity+json' },
      body: JSON.stringify(follow()),
    });
    expect(unsigned.status).toBe(401);
    expect((await strict.signedPost(inboxOf(dave), follow(), { tamper: true })).status).toBe(401);
    expect((await strict.signedPost(inboxOf(dave), follow(), { privateKeyPem: aStrangerKeyPem() })).status).toBe(401);
    expect((await strict.signedPost(inboxOf(dave), follow(), { date: new Date(Date.now() - 2 * 3600_000) })).status).toBe(401);
    expect((await strict.signedPost(inboxOf(dave), follow(), { headers: ['(request-target)', 'date', 'digest'] })).status).toBe(401);
    await drain();
    const list = await server.api.get('fediverse.php?action=followers', { token: dave.token });
    expect(list.body.followers).toEqual([]);
  });

  it('Undo(Follow) removes the follower, whether it embeds the Follow or names it by id', async () => {
    for (const embedded of [true, false]) {
      const u = await aUser(server.api);
      const followActivity = {
        '@context': 'https://www.w3.org/ns/activitystreams',
        id: newActivityId(strict.origin),
        type: 'Follow',
        actor: strict.actorUrl,
        object: actorOf(u),
      };
      expect((await strict.signedPost(inboxOf(u), followActivity)).status).toBe(202);
      await drain();
      expect((await server.api.get('fediverse.php?action=followers', { token: u.token })).body.followers).toHaveLength(1);
      const undo = {
        '@context': 'https://www.w3.org/ns/activitystreams',
        id: newActivityId(strict.origin),
        type: 'Undo',
        actor: strict.actorUrl,
        object: embedded ? followActivity : followActivity.id,
      };
      expect((await strict.signedPost(inboxOf(u), undo)).status).toBe(202);
      await drain();
      expect((await server.api.get('fediverse.php?action=followers', { token: u.token })).body.followers, `embedded: ${embedded}`).toEqual(
        [],
      );
    }
  });

  it('refuses a body over 1 MB with 413, accepts and ignores unknown activity types with 202', async () => {
    const big = { ...follow(), padding: 'x'.repeat(1024 * 1024) };
    expect((await strict.signedPost(inboxOf(dave), big)).status).toBe(413);
    const odd = {
      '@context': 'https://www.w3.org/ns/activitystreams',
      id: newActivityId(strict.origin),
      type: 'Listen',
      actor: strict.actorUrl,
      object: 'https://example.org/x',
    };
    expect((await strict.signedPost(`${origin}/fediverse/inbox`, odd)).status).toBe(202);
    await drain();
  });

  it('stores a remote note once however often it is delivered, only from a followed actor, and deletes it', async () => {
    const erin = await aUser(server.api);
    // erin follows the strict actor (it never accepts: the follow stays pending, which is enough to keep its notes).
    expect(
      (await server.api.post('fediverse.php?action=follow_remote', { actor_url: strict.actorUrl }, { token: erin.token })).status,
    ).toBe(200);
    await drain();
    expect(strict.deliveries.some((d) => d.activity?.type === 'Follow' && d.activity.actor === actorOf(erin) && d.verdict.ok)).toBe(true);
    const noteId = `${strict.origin}/notes/${Date.now()}`;
    const create = {
      '@context': 'https://www.w3.org/ns/activitystreams',
      id: `${noteId}#create`,
      type: 'Create',
      actor: strict.actorUrl,
      object: {
        id: noteId,
        type: 'Note',
        attributedTo: strict.actorUrl,
        content: '<p>once</p>',
        published: new Date().toISOString(),
        to: ['https://www.w3.org/ns/activitystreams#Public'],
      },
    };
    expect((await strict.signedPost(`${origin}/fediverse/inbox`, create)).status).toBe(202);
    expect((await strict.signedPost(`${origin}/fediverse/inbox`, create)).status).toBe(202);
    await drain();
    let feed = await server.api.get('fediverse.php?action=feed', { token: erin.token });
    expect(feed.body.posts.filter((p: any) => p.remote_post_id === noteId)).toHaveLength(1);
    expect(feed.body.posts[0]).toMatchObject({
      remote_post_id: noteId,
      actor_url: strict.actorUrl,
      username: 'strict',
      content: '<p>once</p>',
      is_remote: true,
      account_type: 'remote',
    });

    const del = {
      '@context': 'https://www.w3.org/ns/activitystreams',
      id: `${noteId}#delete`,
      type: 'Delete',
      actor: strict.actorUrl,
      object: noteId,
    };
    expect((await strict.signedPost(`${origin}/fediverse/inbox`, del)).status).toBe(202);
    await drain();
    feed = await server.api.get('fediverse.php?action=feed', { token: erin.token });
    expect(feed.body.posts.filter((p: any) => p.remote_post_id === noteId)).toHaveLength(0);
  });
});

describe('a Plaza user follows the Fedify peer', () => {
  let frank: TestUser;
  beforeAll(async () => {
    frank = await aUser(server.api);
  });

  it('finds it by actor URL and by handle, follows it, is accepted, and sees its new note in the feed', async () => {
    const byUrl = await server.api.get(`fediverse.php?action=search_remote&q=${encodeURIComponent(peer.actorUrl)}`, { token: frank.token });
    expect(byUrl.status).toBe(200);
    const handle = `@peer@${new URL(peer.origin).host}`;
    expect(byUrl.body.items).toEqual([
      expect.objectContaining({ actor_url: peer.actorUrl, handle, display_name: 'Fedify Peer', is_following: false }),
    ]);
    const byHandle = await server.api.get(`fediverse.php?action=search_remote&q=${encodeURIComponent(handle)}`, { token: frank.token });
    expect(byHandle.body.items.map((i: any) => i.actor_url)).toEqual([peer.actorUrl]);

    const followed = await server.api.post('fediverse.php?action=follow_remote', { handle }, { token: frank.token });
    expect(followed.status).toBe(200);
    expect(followed.body.profile).toMatchObject({ actor_url: peer.actorUrl, is_following: true });
    await drain(); // Follow delivered; the peer answers Accept at once, which is queued here
    await drain();
    const following = await server.api.get('fediverse.php?action=following', { token: frank.token });
    expect(following.body.following).toEqual([expect.objectContaining({ actor_url: peer.actorUrl, is_following: true, accepted: true })]);
    expect((await server.api.get('users.php', { token: frank.token })).body.fediverse_following_count).toBe(1);

    const noteId = await peer.post('A note from the peer');
    await drain();
    const feed = await server.api.get('fediverse.php?action=feed', { token: frank.token });
    expect(feed.status).toBe(200);
    expect(feed.body.posts).toEqual([
      expect.objectContaining({ remote_post_id: noteId, actor_url: peer.actorUrl, content: '<p>A note from the peer</p>', handle }),
    ]);
    expect(feed.body.meta).toMatchObject({ total: 1, total_pages: 1 });
    expect(feed.body.synced_posts).toBe(0);
  });

  it('refresh=1 pulls the followed outboxes (synced_posts counts the new ones); remote_profile shows recent posts', async () => {
    // The strict actor never delivers its notes: only its outbox has them.
    const ivy = await aUser(server.api);
    expect((await server.api.post('fediverse.php?action=follow_remote', { actor_url: strict.actorUrl }, { token: ivy.token })).status).toBe(
      200,
    );
    await drain();
    const noteId = `${strict.origin}/notes/outbox-only-${Date.now()}`;
    strict.notes.push({ id: noteId, content: '<p>only in the outbox</p>', published: new Date().toISOString() });
    const plain = await server.api.get('fediverse.php?action=feed', { token: ivy.token });
    expect(plain.body.posts.map((p: any) => p.remote_post_id)).not.toContain(noteId);
    const refreshed = await server.api.get('fediverse.php?action=feed&refresh=1', { token: ivy.token });
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.synced_posts).toBe(1);
    expect(refreshed.body.posts.map((p: any) => p.remote_post_id)).toContain(noteId);
    expect((await server.api.get('fediverse.php?action=feed&refresh=1', { token: ivy.token })).body.synced_posts).toBe(0);

    const older = await peer.post('Listed by the outbox');
    const profile = await server.api.get(
      `fediverse.php?action=remote_profile&q=${encodeURIComponent(peer.actorUrl)}&include_posts=1&posts_limit=20`,
      { token: frank.token },
    );
    expect(profile.status).toBe(200);
    expect(profile.body).toMatchObject({ actor_url: peer.actorUrl, username: 'peer', is_following: true });
    expect(profile.body.recent_posts.map((p: any) => p.remote_post_id)).toContain(older);
  });

  it('unfollow_remote (DELETE with a JSON body) sends Undo(Follow)', async () => {
    const before = peer.received.length;
    const res = await server.api.delete('fediverse.php?action=unfollow_remote', { actor_url: peer.actorUrl }, { token: frank.token });
    expect(res.status).toBe(200);
    expect(res.body.profile).toMatchObject({ actor_url: peer.actorUrl, is_following: false });
    await drain();
    expect(types(peer.received.slice(before) as any)).toContain('Undo');
    const following = await server.api.get('fediverse.php?action=following', { token: frank.token });
    expect(following.body.following).toEqual([]);
  });
});

describe('what federates (docs/decisions/0050)', () => {
  it("a private account's posts go to its followers only, never to the public; its outbox lists none", async () => {
    const grace = await aUser(server.api);
    await server.database.db.updateTable('users').set({ is_private: 1 }).where('id', '=', grace.id).execute();
    await strict.signedPost(inboxOf(grace), {
      '@context': 'https://www.w3.org/ns/activitystreams',
      id: newActivityId(strict.origin),
      type: 'Follow',
      actor: strict.actorUrl,
      object: actorOf(grace),
    });
    await drain();
    // A private account approves its followers (docs/decisions/0210).
    const [request] = (await server.api.get('friends.php?type=pending', { token: grace.token })).body.pending_requests;
    expect(
      (await server.api.post('friends.php', { action: 'accept', request_id: request.request_id }, { token: grace.token })).status,
    ).toBe(200);
    await drain();
    const before = strict.deliveries.length;
    await aPost(server.api, grace, { content: 'Followers only' });
    await drain();
    const create = strict.deliveries.slice(before).find((d) => d.activity?.type === 'Create');
    expect(create?.verdict.ok).toBe(true);
    const audience = [create?.activity.to, create?.activity.cc, create?.activity.object.to, create?.activity.object.cc]
      .flat()
      .filter(Boolean);
    expect(audience).not.toContain('https://www.w3.org/ns/activitystreams#Public');
    expect(audience).not.toContain('as:Public');
    expect(audience).toContain(`${origin}/fediverse/followers.php?username=${grace.username}`);
    const outbox = await server.api.get(`/fediverse/outbox.php?username=${grace.username}`, { headers: AP });
    expect(outbox.body.totalItems).toBe(0);
  });

  it("a public account's outbox lists its latest posts as Create(Note)", async () => {
    const henry = await aUser(server.api);
    await aPost(server.api, henry, { content: 'first' });
    await aPost(server.api, henry, { content: 'second' });
    const outbox = await server.api.get(`/fediverse/outbox.php?username=${henry.username}`, { headers: AP });
    expect(outbox.body).toMatchObject({ type: 'OrderedCollection', totalItems: 2 });
    expect(outbox.body.orderedItems.map((a: any) => [a.type, a.object.type])).toEqual([
      ['Create', 'Note'],
      ['Create', 'Note'],
    ]);
    expect(outbox.body.orderedItems[0].object.content).toContain('second');
  });
});

describe('account data (docs/decisions/0090)', () => {
  it('export.php lists remote followers and follows, never the keys; deleting the account removes them and the key pair', async () => {
    const kim = await aUser(server.api);
    await peer.follow(actorOf(kim));
    expect((await server.api.post('fediverse.php?action=follow_remote', { actor_url: strict.actorUrl }, { token: kim.token })).status).toBe(
      200,
    );
    await drain();
    const db = server.database.db;
    expect(await db.selectFrom('federation_keys').select('user_id').where('user_id', '=', kim.id).execute()).toHaveLength(1);

    const exported = await server.api.get('export.php', { token: kim.token });
    expect(exported.status).toBe(200);
    expect(exported.body.fediverse_followers).toEqual([{ actor_url: peer.actorUrl, followed_at: expect.any(String) }]);
    expect(exported.body.fediverse_following).toEqual([{ actor_url: strict.actorUrl, followed_at: expect.any(String) }]);
    expect(JSON.stringify(exported.body)).not.toMatch(/private_jwk|public_jwk|PRIVATE KEY/);

    expect((await server.api.post('delete_account.php', { password: kim.password }, { token: kim.token })).status).toBe(200);
    await server.mailSettled();
    const mail = server.mailer.sent.findLast((m) => m.to === kim.email)!;
    const link = /(http:\/\/\S+\/api\/v1\/delete_account\.php\?token=\S+)/.exec(mail.text)![1];
    expect((await fetch(link)).status).toBe(200);
    expect(await db.selectFrom('remote_followers').select('actor_url').where('user_id', '=', kim.id).execute()).toEqual([]);
    expect(await db.selectFrom('remote_following').select('actor_url').where('user_id', '=', kim.id).execute()).toEqual([]);
    expect(await db.selectFrom('federation_keys').select('user_id').where('user_id', '=', kim.id).execute()).toEqual([]);
    // The account is gone from the fediverse too.
    expect((await server.api.get(`/fediverse/actor.php?username=${kim.username}`, { headers: AP })).status).toBe(404);
  });
});
