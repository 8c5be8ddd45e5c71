import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aPost, aUser, type TestUser } from '../support/mothers.js';
import type { TestServer } from '../support/server.js';
import type { FedifyPeer } from '../support/fedify-peer.js';
import { FederationWorld } from '../support/federation-world.js';
import type { StrictServer } from '../support/strict-verifier.js';

/**
 * Reactions and replies of local users to remote posts (fediverse.php `react_remote`,
 * `unreact_remote`, `reply_remote`; docs/decisions/0245): the Note is fetched, the reaction or reply
 * stored, and Like / EmojiReact / Undo / Create(Note) with inReplyTo delivered to its author, signed.
 * Against the Fedify peer (Fedify verifies what it accepts) and the strict verifier (Mastodon's rules).
 */
let world: FederationWorld;
let server: TestServer;
let peer: FedifyPeer;
let strict: StrictServer;

const actorOf = (u: { username: string }) => world.actorOf(u);
const drain = () => world.drain();
const delivered = (type: string, u: TestUser) =>
  strict.deliveries.filter((d) => d.activity?.type === type && d.activity.actor === actorOf(u));
const peerGot = (type: string, u: TestUser) =>
  peer.received.filter((a) => a.constructor.name === type && (a as any).actorId?.href === actorOf(u)) as any[];
const strictNote = (content = 'A strict note') => {
  const id = `${strict.origin}/notes/${Math.random().toString(36).slice(2)}`;
  strict.notes.push({ id, content: `<p>${content}</p>`, published: new Date().toISOString() });
  return id;
};
const react = (u: TestUser, object_url: string, reaction_type?: string) =>
  server.api.post('fediverse.php?action=react_remote', { object_url, ...(reaction_type ? { reaction_type } : {}) }, { token: u.token });
const unreact = (u: TestUser, object_url: string) =>
  server.api.delete('fediverse.php?action=unreact_remote', { object_url }, { token: u.token });
const reply = (u: TestUser, object_url: string, content: string) =>
  server.api.post('fediverse.php?action=reply_remote', { object_url, content }, { token: u.token });
const reactionsOf = (u: TestUser) =>
  server.database.db.selectFrom('outbound_remote_reactions').selectAll().where('user_id', '=', u.id).execute();

beforeAll(async () => {
  world = await FederationWorld.start();
  ({ server, peer, strict } = world);
});
afterAll(() => world?.close());

describe('reacting to a remote post', () => {
  it('a like is a Like of the Note, verified by the Fedify peer', async () => {
    const ann = await aUser(server.api);
    const noteId = await peer.post('Hello from Fedify');
    const res = await react(ann, noteId);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ object_url: noteId, reaction_type: 'like', changed: true, is_liked: true });
    await drain();
    const [like] = peerGot('Like', ann);
    expect(like, 'the peer verified and received the Like').toBeDefined();
    expect(like.objectId.href).toBe(noteId);
  });

  it("the five others are EmojiReact with the reaction's emoji, signed as Mastodon checks", async () => {
    const bea = await aUser(server.api);
    const noteId = strictNote();
    expect((await react(bea, noteId, 'love')).status).toBe(200);
    await drain();
    const [emoji] = delivered('EmojiReact', bea);
    expect(emoji?.verdict).toEqual({ ok: true, reason: 'verified', keyOwner: actorOf(bea) });
    expect(emoji.activity).toMatchObject({ object: noteId, content: '❤️' });
    expect(delivered('Like', bea)).toEqual([]);
  });

  it('the same reaction again changes nothing; another one sends Undo of the first, then the new one', async () => {
    const cid = await aUser(server.api);
    const noteId = strictNote();
    expect((await react(cid, noteId, 'like')).body.changed).toBe(true);
    expect((await react(cid, noteId, 'like')).body).toMatchObject({ changed: false, message: 'Already reacted' });
    await drain();
    const [like] = delivered('Like', cid);
    expect(delivered('Like', cid)).toHaveLength(1);
    expect((await react(cid, noteId, 'haha')).body.changed).toBe(true);
    await drain();
    const [undo] = delivered('Undo', cid);
    expect(undo?.verdict.ok, undo?.verdict.reason).toBe(true);
    expect(undo.activity.object).toMatchObject({ id: like.activity.id, type: 'Like', object: noteId });
    expect(delivered('EmojiReact', cid).map((d) => d.activity.content)).toEqual(['😂']);
    expect((await reactionsOf(cid)).map((r) => r.reaction_type)).toEqual(['haha']);
  });

  it('unreact sends Undo of the stored activity; unreacting nothing answers removed: false and sends nothing', async () => {
    const dan = await aUser(server.api);
    const noteId = await peer.post('Undo me');
    expect((await react(dan, noteId, 'wow')).status).toBe(200);
    await drain();
    const [emoji] = peerGot('EmojiReact', dan);
    expect(emoji, 'the peer received the EmojiReact').toBeDefined();
    const res = await unreact(dan, noteId);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ object_url: noteId, removed: true, is_liked: false });
    await drain();
    const [undo] = peerGot('Undo', dan);
    expect(undo, 'the peer verified and received the Undo').toBeDefined();
    expect(undo.objectId.href).toBe(emoji.id.href);
    expect(await reactionsOf(dan)).toEqual([]);
    const again = await unreact(dan, noteId);
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ removed: false });
    await drain();
    expect(peerGot('Undo', dan)).toHaveLength(1);
  });

  it('twenty concurrent identical reacts store one reaction and send one activity, with no 500', async () => {
    const eve = await aUser(server.api);
    const noteId = strictNote();
    const answers = await Promise.all(Array.from({ length: 20 }, () => react(eve, noteId, 'sad')));
    expect(answers.map((a) => a.status).filter((s) => s !== 200)).toEqual([]);
    expect(answers.filter((a) => a.body.changed)).toHaveLength(1);
    expect(await reactionsOf(eve)).toHaveLength(1);
    await drain();
    expect(delivered('EmojiReact', eve)).toHaveLength(1);
  });
});

describe('replying to a remote post', () => {
  it("a public account's reply is Create(Note) with inReplyTo to the author and its followers, signed", async () => {
    const fay = await aUser(server.api);
    await peer.follow(actorOf(fay));
    await drain();
    const noteId = strictNote('Reply to me');
    const res = await reply(fay, noteId, 'A fine note');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.reply).toMatchObject({ object_url: noteId, content: 'A fine note', visibility: 'public' });
    await drain();
    const [create] = delivered('Create', fay);
    expect(create?.verdict).toEqual({ ok: true, reason: 'verified', keyOwner: actorOf(fay) });
    expect(create.activity.object).toMatchObject({
      id: res.body.reply.note_id,
      type: 'Note',
      inReplyTo: noteId,
      attributedTo: actorOf(fay),
      content: '<p>A fine note</p>',
    });
    expect(create.activity.to).toBe('as:Public');
    expect(create.activity.cc).toContain(strict.actorUrl);
    expect(create.activity.object.tag).toMatchObject({ type: 'Mention', href: strict.actorUrl });
    const [atPeer] = peerGot('Create', fay);
    expect(atPeer, "the replier's follower (the peer) received it too").toBeDefined();
  });

  it("a private account's reply goes to the author alone", async () => {
    const gus = await aUser(server.api);
    await peer.follow(actorOf(gus));
    await drain();
    await server.database.db.updateTable('users').set({ is_private: 1 }).where('id', '=', gus.id).execute();
    const noteId = strictNote();
    const res = await reply(gus, noteId, 'Just for you');
    expect(res.body.reply.visibility).toBe('direct');
    await drain();
    const [create] = delivered('Create', gus);
    expect(create?.verdict.ok, create?.verdict.reason).toBe(true);
    expect(create.activity.to).toBe(strict.actorUrl);
    expect(JSON.stringify(create.activity)).not.toContain('Public');
    expect(peerGot('Create', gus)).toEqual([]);
  });

  it('a reply to a Fedify note reaches the Fedify peer with inReplyTo', async () => {
    const hal = await aUser(server.api);
    const noteId = await peer.post('Threads please');
    expect((await reply(hal, noteId, 'Threaded')).status).toBe(200);
    await drain();
    const [create] = peerGot('Create', hal);
    expect(create, 'the peer verified and received the reply').toBeDefined();
    const object = await create.getObject();
    expect(object.replyTargetId?.href).toBe(noteId);
  });
});

describe('refusals: nothing is stored or sent', () => {
  it('an object that does not answer, or is not a Note, is 404 remote_object_not_found', async () => {
    const ivy = await aUser(server.api);
    for (const url of [`${strict.origin}/notes/missing`, strict.actorUrl]) {
      const res = await react(ivy, url);
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('remote_object_not_found');
      expect((await reply(ivy, url, 'Hello?')).status).toBe(404);
    }
    expect(await reactionsOf(ivy)).toEqual([]);
    expect(await server.database.db.selectFrom('outbound_remote_replies').select('id').where('user_id', '=', ivy.id).execute()).toEqual([]);
    await drain();
    expect(strict.deliveries.filter((d) => d.activity?.actor === actorOf(ivy))).toEqual([]);
  });

  it('a post of this server is 400 remote_object_is_local; bad input is 400', async () => {
    const jo = await aUser(server.api);
    const post = await aPost(server.api, jo, { content: 'local' });
    const local = await react(jo, `${world.origin}/api/v1/posts.php?id=${post.id}`);
    expect(local.status).toBe(400);
    expect(local.body.code).toBe('remote_object_is_local');
    const noteId = strictNote();
    for (const body of [
      { object_url: 'not a url' },
      { object_url: 'ftp://example.com/x' },
      { object_url: noteId, reaction_type: 'thumbs_up' },
      {},
    ]) {
      expect((await server.api.post('fediverse.php?action=react_remote', body, { token: jo.token })).status).toBe(400);
    }
    expect((await reply(jo, noteId, '   ')).status).toBe(400);
    expect((await reply(jo, noteId, 'x'.repeat(5001))).status).toBe(400);
    expect(await reactionsOf(jo)).toEqual([]);
  });

  it('needs a signed-in user', async () => {
    expect((await server.api.post('fediverse.php?action=react_remote', { object_url: strictNote() })).status).toBe(401);
  });
});
