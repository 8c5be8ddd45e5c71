import { Hashtag, Mention, Note } from '@fedify/fedify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acceptPendingFollows, aComment, aPost, aUser, type TestUser } from '../support/mothers.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { startFedifyPeer, type FedifyPeer } from '../support/fedify-peer.js';
import { freePort } from '../support/free-port.js';
import { startStrictServer, type StrictServer } from '../support/strict-verifier.js';

/**
 * Fetchable objects, content negotiation, secure mode, mentions and hashtags (issue 29 items 1 and 5,
 * docs/decisions/0201): Plaza on loopback against a Fedify peer and the strict verifier of Mastodon's
 * signature rules. A second Plaza runs in secure mode with MAIN_APP_HOST set.
 */
let server: TestServer;
let secure: TestServer;
let peer: FedifyPeer;
let strict: StrictServer;
let origin: string;
let secureOrigin: string;

const AP = 'application/activity+json';
const LD = 'application/ld+json; profile="https://www.w3.org/ns/activitystreams"';
/** The Public collection as Fedify compacts it (Mastodon reads both forms). */
const PUBLIC = 'as:Public';
const MAIN = 'https://main.example';
const actorOf = (o: string, u: { username: string }) => `${o}/fediverse/actor.php?username=${u.username}`;
const noteOf = (o: string, id: number) => `${o}/api/v1/posts.php?id=${id}`;
const commentOf = (o: string, id: number) => `${o}/fediverse/comment.php?id=${id}`;
const get = (url: string, accept = AP) => fetch(url, { headers: { Accept: accept }, redirect: 'manual' });
const drain = async (s: TestServer) => {
  for (let i = 0; i < 5; i++) await s.runJob('federation-queue');
};
/** A private account approves its remote followers (docs/decisions/0210). */
const approveAll = async (u: TestUser) => {
  await acceptPendingFollows(server.api, u);
  await drain(server);
};
const makePrivate = (s: TestServer, u: TestUser) =>
  s.database.db.updateTable('users').set({ is_private: 1 }).where('id', '=', u.id).execute();

beforeAll(async () => {
  const [port, securePort] = [await freePort(), await freePort()];
  origin = `http://127.0.0.1:${port}`;
  secureOrigin = `http://127.0.0.1:${securePort}`;
  server = await startTestServer({ env: { PORT: String(port), API_PUBLIC_URL: origin, API_FEDERATION_ALLOW_PRIVATE: 'true' } });
  secure = await startTestServer({
    env: {
      PORT: String(securePort),
      API_PUBLIC_URL: secureOrigin,
      API_FEDERATION_ALLOW_PRIVATE: 'true',
      API_FEDERATION_SECURE_MODE: 'true',
      MAIN_APP_HOST: `${MAIN}/`,
    },
  });
  peer = await startFedifyPeer();
  strict = await startStrictServer();
  // Two servers with their migrations: on a loaded MariaDB, more than the default hook timeout.
}, 120_000);

afterAll(async () => {
  await peer?.close();
  await strict?.close();
  await server?.close();
  await secure?.close();
});

describe("a public account's post and comments at their ids", () => {
  let alice: TestUser;
  let postId: number;

  beforeAll(async () => {
    alice = await aUser(server.api);
    postId = (await aPost(server.api, alice, { content: 'Fetch me #Plaza' })).id;
  });

  it('answers the Note for activity+json and ld+json without a token, as the outbox maps it', async () => {
    for (const accept of [AP, LD]) {
      const res = await get(noteOf(origin, postId), accept);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toContain('application/activity+json');
      const note = (await res.json()) as any;
      expect(note).toMatchObject({
        id: noteOf(origin, postId),
        type: 'Note',
        attributedTo: actorOf(origin, alice),
        to: PUBLIC,
        cc: `${origin}/fediverse/followers.php?username=${alice.username}`,
        tag: { type: 'Hashtag', name: '#plaza', href: `${origin}/fediverse/tag.php?tag=plaza` },
      });
      expect(note.content).toContain(
        `<a href="${origin}/fediverse/tag.php?tag=plaza" class="mention hashtag" rel="tag">#<span>Plaza</span></a>`,
      );
    }
    const outbox = await get(`${origin}/fediverse/outbox.php?username=${alice.username}`);
    const item = ((await outbox.json()) as any).orderedItems[0];
    const fetched = (await (await get(noteOf(origin, postId))).json()) as any;
    const { '@context': _context, ...note } = fetched;
    expect(item.object).toEqual(note);
  });

  it('a Fedify peer resolves the Note by its id, signed and unsigned', async () => {
    for (const signed of [false, true]) {
      const note = await peer.lookup(noteOf(origin, postId), signed);
      expect(note).toBeInstanceOf(Note);
      expect((note as Note).id?.href).toBe(noteOf(origin, postId));
      expect(String((note as Note).content)).toContain('Fetch me');
    }
  });

  it("the app's own read of posts.php is unchanged (a token, application/json, or activity+json with a token)", async () => {
    const res = await server.api.get(`posts.php?id=${postId}`, { token: alice.token });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/json');
    expect(res.body).toMatchObject({ success: true, data: { id: postId, content: 'Fetch me #Plaza' } });
    const asAp = await server.api.get(`posts.php?id=${postId}`, { token: alice.token, headers: { Accept: AP } });
    expect(asAp.body).toEqual(res.body);
    // Without a token and without an ActivityStreams or HTML Accept: the API's 401, as before.
    expect((await server.api.get(`posts.php?id=${postId}`)).status).toBe(401);
  });

  it('a comment and a reply are Notes in reply to the post and to their parent comment', async () => {
    const bob = await aUser(server.api);
    const comment = await aComment(server.api, bob, postId, { content: 'First <b>comment</b>' });
    const reply = await aComment(server.api, alice, postId, { content: 'A reply', parent_id: comment.id });
    const first = (await (await get(commentOf(origin, comment.id))).json()) as any;
    expect(first).toMatchObject({
      id: commentOf(origin, comment.id),
      type: 'Note',
      attributedTo: actorOf(origin, bob),
      inReplyTo: noteOf(origin, postId),
      to: PUBLIC,
      content: '<p>First &lt;b&gt;comment&lt;/b&gt;</p>',
    });
    const second = (await (await get(commentOf(origin, reply.id), LD)).json()) as any;
    expect(second).toMatchObject({
      id: commentOf(origin, reply.id),
      inReplyTo: commentOf(origin, comment.id),
      attributedTo: actorOf(origin, alice),
    });
    const viaPeer = await peer.lookup(commentOf(origin, reply.id), false);
    expect((viaPeer as Note).replyTargetId?.href).toBe(commentOf(origin, comment.id));
  });

  it('a Note fetched with a signature that passes the strict verifier is served', async () => {
    const res = await strict.signedGet(noteOf(origin, postId));
    expect(res.status).toBe(200);
    expect(((await res.json()) as any).id).toBe(noteOf(origin, postId));
  });
});

describe('refused fetches are 404', () => {
  it('missing, malformed, deleted, and a private account’s post and comments without a follower’s signature', async () => {
    const carol = await aUser(server.api);
    const gone = await aPost(server.api, carol, { content: 'to delete' });
    const gonesComment = await aComment(server.api, carol, gone.id, { content: 'goes with it' });
    expect((await server.api.delete(`posts.php?id=${gone.id}`, undefined, { token: carol.token })).status).toBe(200);
    const dave = await aUser(server.api);
    await makePrivate(server, dave);
    const hidden = await aPost(server.api, dave, { content: 'followers only' });
    const hiddenComment = await aComment(server.api, dave, hidden.id, { content: 'also followers only' });
    const refused = [
      noteOf(origin, 99_999_999),
      `${origin}/api/v1/posts.php?id=abc`,
      `${origin}/api/v1/posts.php`,
      commentOf(origin, 99_999_999),
      `${origin}/fediverse/comment.php?id=-1`,
      noteOf(origin, gone.id),
      commentOf(origin, gonesComment.id),
      noteOf(origin, hidden.id),
      commentOf(origin, hiddenComment.id),
    ];
    for (const url of refused) {
      const res = await get(url);
      expect(res.status, url).toBe(404);
      expect(((await res.json()) as any).code, url).toBe('not_found');
    }
    // Signed, but by a server where none of dave's followers is: still 404 (strict verifier and peer).
    expect((await strict.signedGet(noteOf(origin, hidden.id))).status).toBe(404);
    expect((await peer.signedGet(noteOf(origin, hidden.id))).status).toBe(404);
    expect(await peer.lookup(noteOf(origin, hidden.id), true)).toBeNull();
    // Writes to a Note id are not the fetch's: 405.
    expect((await fetch(commentOf(origin, hiddenComment.id), { method: 'POST', headers: { Accept: AP } })).status).toBe(405);
  });

  it("a private account's post is served to a signed fetch by its follower's server, and its comments too", async () => {
    const erin = await aUser(server.api);
    await makePrivate(server, erin);
    await peer.follow(actorOf(origin, erin));
    await drain(server);
    await approveAll(erin);
    const followers = await get(`${origin}/fediverse/followers.php?username=${erin.username}`);
    expect(((await followers.json()) as any).totalItems).toBe(1);
    const post = await aPost(server.api, erin, { content: 'for my followers' });
    const comment = await aComment(server.api, erin, post.id, { content: 'and a comment' });
    expect((await get(noteOf(origin, post.id))).status).toBe(404);
    const res = await peer.signedGet(noteOf(origin, post.id));
    expect(res.status).toBe(200);
    const note = (await res.json()) as any;
    expect(note).toMatchObject({ id: noteOf(origin, post.id), to: `${origin}/fediverse/followers.php?username=${erin.username}` });
    expect(JSON.stringify(note)).not.toMatch(/as:Public|activitystreams#Public/);
    expect(((await peer.lookup(noteOf(origin, post.id), true)) as Note | null)?.id?.href).toBe(noteOf(origin, post.id));
    expect((await peer.signedGet(commentOf(origin, comment.id))).status).toBe(200);
    expect((await get(commentOf(origin, comment.id))).status).toBe(404);
    // The strict verifier, once a follower, signs the full target (`?id=N`): served too.
    expect((await strict.signedGet(noteOf(origin, post.id))).status).toBe(404);
    await strict.signedPost(`${origin}/fediverse/inbox/${erin.username}`, {
      '@context': 'https://www.w3.org/ns/activitystreams',
      id: `${strict.origin}/follows/${post.id}`,
      type: 'Follow',
      actor: strict.actorUrl,
      object: actorOf(origin, erin),
    });
    await drain(server);
    await approveAll(erin);
    expect((await strict.signedGet(noteOf(origin, post.id))).status).toBe(200);
  });
});

describe('browsers', () => {
  it('get a minimal escaped page for the actor, a public post, a comment and a tag; 404 pages otherwise', async () => {
    const frank = await aUser(server.api);
    await server.database.db
      .updateTable('users')
      .set({ display_name: 'Frank <script>alert(1)</script>', bio: 'I like <img src=x onerror=alert(1)>' })
      .where('id', '=', frank.id)
      .execute();
    const post = await aPost(server.api, frank, { content: 'Hello <script>x()</script> web' });
    const comment = await aComment(server.api, frank, post.id, { content: 'a <i>comment</i>' });
    const html = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
    for (const url of [
      actorOf(origin, frank),
      noteOf(origin, post.id),
      commentOf(origin, comment.id),
      `${origin}/fediverse/tag.php?tag=plaza`,
    ]) {
      const res = await get(url, html);
      expect(res.status, url).toBe(200);
      expect(res.headers.get('content-type')).toContain('text/html');
      expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
      const body = await res.text();
      expect(body, url).not.toMatch(/<script|<img|<i>/);
    }
    expect(await (await get(noteOf(origin, post.id), html)).text()).toContain('Hello &lt;script&gt;x()&lt;/script&gt; web');
    expect(await (await get(actorOf(origin, frank), html)).text()).toContain('Frank &lt;script&gt;');
    expect((await get(noteOf(origin, 99_999_999), html)).status).toBe(404);
    expect((await get(`${origin}/fediverse/actor.php?username=nobody_here`, html)).status).toBe(404);
    // The actor still answers ActivityStreams to everything else, as before.
    expect((await get(actorOf(origin, frank))).status).toBe(200);
  });

  it('are sent to MAIN_APP_HOST when it is configured', async () => {
    const gina = await aUser(secure.api);
    const post = await aPost(secure.api, gina, { content: 'on the main app' });
    const comment = await aComment(secure.api, gina, post.id, { content: 'a comment' });
    const html = 'text/html';
    const cases: [string, string][] = [
      [actorOf(secureOrigin, gina), `${MAIN}/profile.php?id=${gina.id}`],
      [noteOf(secureOrigin, post.id), `${MAIN}/post.php?id=${post.id}`],
      [commentOf(secureOrigin, comment.id), `${MAIN}/post.php?id=${post.id}#comment-${comment.id}`],
    ];
    for (const [url, location] of cases) {
      const res = await get(url, html);
      expect(res.status, url).toBe(302);
      expect(res.headers.get('location')).toBe(location);
    }
  });
});

describe('secure mode (API_FEDERATION_SECURE_MODE=true)', () => {
  let hank: TestUser;
  let postId: number;
  beforeAll(async () => {
    hank = await aUser(secure.api);
    postId = (await aPost(secure.api, hank, { content: 'only for signed fetches' })).id;
  });

  it('refuses unsigned fetches of objects and collections with 401; the actor and the instance actor stay public', async () => {
    for (const url of [
      noteOf(secureOrigin, postId),
      `${secureOrigin}/fediverse/outbox.php?username=${hank.username}`,
      `${secureOrigin}/fediverse/followers.php?username=${hank.username}`,
      `${secureOrigin}/fediverse/following.php?username=${hank.username}`,
    ]) {
      const res = await get(url);
      expect(res.status, url).toBe(401);
      expect(((await res.json()) as any).code).toBe('signature_required');
    }
    expect(await peer.lookup(noteOf(secureOrigin, postId), false)).toBeNull();
    expect((await get(actorOf(secureOrigin, hank))).status).toBe(200);
    const instance = await get(`${secureOrigin}/fediverse/instance-actor.php`);
    expect(instance.status).toBe(200);
    expect(await instance.json()).toMatchObject({
      id: `${secureOrigin}/fediverse/instance-actor.php`,
      type: 'Application',
      publicKey: { id: `${secureOrigin}/fediverse/instance-actor.php#main-key`, publicKeyPem: expect.stringContaining('PUBLIC KEY') },
    });
  });

  it('serves signed fetches (Fedify peer and strict verifier), objects and collections', async () => {
    const res = await strict.signedGet(noteOf(secureOrigin, postId));
    expect(res.status).toBe(200);
    expect(((await res.json()) as any).id).toBe(noteOf(secureOrigin, postId));
    expect(((await peer.lookup(noteOf(secureOrigin, postId), true)) as Note | null)?.id?.href).toBe(noteOf(secureOrigin, postId));
    expect((await peer.signedGet(`${secureOrigin}/fediverse/outbox.php?username=${hank.username}`)).status).toBe(200);
    // A signature that does not verify counts as none.
    const forged = await fetch(noteOf(secureOrigin, postId), {
      headers: {
        Accept: AP,
        Date: new Date().toUTCString(),
        Signature: `keyId="${strict.keyId}",algorithm="rsa-sha256",headers="date",signature="AAAA"`,
      },
    });
    expect(forged.status).toBe(401);
  });

  it("signs Plaza's own fetches with the instance actor's key, which the strict verifier accepts", async () => {
    const before = strict.actorFetches.length;
    const res = await secure.api.get(`fediverse.php?action=remote_profile&q=${encodeURIComponent(strict.actorUrl)}`, { token: hank.token });
    expect(res.status).toBe(200);
    for (let i = 0; i < 50 && strict.actorFetches.length === before; i++) await new Promise((r) => setTimeout(r, 50));
    expect(strict.actorFetches.slice(before)).toContainEqual({
      ok: true,
      reason: 'verified',
      keyOwner: `${secureOrigin}/fediverse/instance-actor.php`,
    });
  });

  // After the instance actor's test: replying fetches (and caches) the strict verifier's actor.
  it('refuses an unsigned fetch of a reply to a remote post with 401; the addressed author reads it signed (docs/decisions/0246)', async () => {
    const noteId = `${strict.origin}/notes/secure-reply`;
    strict.notes.push({ id: noteId, content: '<p>Answer me</p>', published: new Date().toISOString() });
    const res = await secure.api.post(
      'fediverse.php?action=reply_remote',
      { object_url: noteId, content: 'Signed only' },
      { token: hank.token },
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const unsigned = await get(res.body.reply.note_id);
    expect(unsigned.status).toBe(401);
    expect(((await unsigned.json()) as any).code).toBe('signature_required');
    const signed = await strict.signedGet(res.body.reply.note_id);
    expect(signed.status).toBe(200);
    expect(await signed.json()).toMatchObject({ id: res.body.reply.note_id, inReplyTo: noteId, content: '<p>Signed only</p>' });
  });
});

describe('mentions and hashtags', () => {
  it('a post mentioning the peer reaches its inbox with a Mention tag and a linked h-card, and keeps its Hashtag', async () => {
    const ivy = await aUser(server.api);
    const handle = `@peer@${new URL(peer.origin).host}`;
    const before = peer.received.length;
    const post = await aPost(server.api, ivy, { content: `Hello ${handle}, and @nobody@127.0.0.1:1 too #Fedi` });
    await drain(server);
    const create = peer.received
      .slice(before)
      .find((a: any) => a.constructor.name === 'Create' && a.objectId?.href === noteOf(origin, post.id)) as any;
    expect(create, 'the mentioned peer received the Create though it follows nobody here').toBeDefined();
    const note = (await create.getObject()) as Note;
    expect(note.id?.href).toBe(noteOf(origin, post.id));
    const tags = [];
    for await (const tag of note.getTags()) tags.push(tag);
    const mention = tags.find((t) => t instanceof Mention) as Mention;
    expect(mention?.href?.href).toBe(peer.actorUrl);
    expect(String(mention?.name)).toBe(handle);
    const hashtag = tags.find((t) => t instanceof Hashtag) as Hashtag;
    expect(hashtag?.href?.href).toBe(`${origin}/fediverse/tag.php?tag=fedi`);
    expect(note.ccIds.map((u) => u.href)).toContain(peer.actorUrl);
    expect(String(note.content)).toContain(
      `<span class="h-card"><a href="${peer.actorUrl}" class="u-url mention">@<span>peer</span></a></span>`,
    );
    // The unresolvable mention stays plain text, and the post was published all the same.
    expect(String(note.content)).toContain('@nobody@127.0.0.1:1 too');
    expect(tags.filter((t) => t instanceof Mention)).toHaveLength(1);
    // The Note at its id shows the same mention (resolved once, cached).
    const fetched = (await (await get(noteOf(origin, post.id))).json()) as any;
    expect(fetched.tag).toContainEqual({ type: 'Mention', href: peer.actorUrl, name: handle });
  });

  it("a private account's mentions are neither resolved nor delivered", async () => {
    const jack = await aUser(server.api);
    await makePrivate(server, jack);
    const before = peer.received.length;
    const handle = `@peer@${new URL(peer.origin).host}`;
    expect((await server.api.post('posts.php', { content: `psst ${handle}` }, { token: jack.token })).status).toBe(200);
    await drain(server);
    expect(peer.received.slice(before)).toEqual([]);
  });
});
