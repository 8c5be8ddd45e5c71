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
const editReply = (u: TestUser, reply_id: unknown, content: string) =>
  server.api.put('fediverse.php?action=edit_remote_reply', { reply_id, content }, { token: u.token });
const deleteReply = (u: TestUser, reply_id: unknown) =>
  server.api.delete('fediverse.php?action=delete_remote_reply', { reply_id }, { token: u.token });
const repliesOf = (u: TestUser) =>
  server.database.db.selectFrom('outbound_remote_replies').selectAll().where('user_id', '=', u.id).execute();
const AP = 'application/activity+json';
const getAs = (url: string, accept = AP) => fetch(url, { headers: { Accept: accept }, redirect: 'manual' });
const makePrivate = (u: TestUser) => server.database.db.updateTable('users').set({ is_private: 1 }).where('id', '=', u.id).execute();
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

describe("a reply's Note at its id (docs/decisions/0246)", () => {
  it('a public reply is served to anyone as the Note its Create carried; the Fedify peer resolves it; a browser gets a page', async () => {
    const kai = await aUser(server.api);
    const noteId = strictNote('Fetch my reply');
    const { note_id } = (await reply(kai, noteId, 'Served <b>as</b> sent')).body.reply;
    await drain();
    const [create] = delivered('Create', kai);
    const res = await getAs(note_id);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/activity+json');
    const body = (await res.json()) as any;
    const { '@context': _context, ...served } = body;
    const { '@context': _sent, ...sent } = create.activity.object;
    expect({ ...served, url: undefined }).toEqual({ ...sent, url: undefined });
    expect(body).toMatchObject({ id: note_id, type: 'Note', inReplyTo: noteId, attributedTo: actorOf(kai), to: 'as:Public' });
    const resolved = (await peer.lookup(note_id, false)) as any;
    expect(resolved?.id?.href, 'the Fedify peer dereferences the id').toBe(note_id);
    expect(resolved.replyTargetId?.href).toBe(noteId);
    const page = await getAs(note_id, 'text/html');
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Served &lt;b&gt;as&lt;/b&gt; sent');
  });

  it('a direct reply is served only to a signed fetch by the addressed author; anyone else gets 404', async () => {
    const lea = await aUser(server.api);
    await makePrivate(lea);
    const noteId = strictNote();
    const { note_id } = (await reply(lea, noteId, 'Only for the author')).body.reply;
    const signed = await strict.signedGet(note_id);
    expect(signed.status).toBe(200);
    expect(await signed.json()).toMatchObject({ id: note_id, to: strict.actorUrl, content: '<p>Only for the author</p>' });
    expect((await getAs(note_id)).status, 'unsigned').toBe(404);
    expect((await peer.signedGet(note_id)).status, 'signed by another server').toBe(404);
    expect(await peer.lookup(note_id, true)).toBeNull();
    expect((await getAs(note_id, 'text/html')).status).toBe(404);
    for (const id of ['0', 'abc', '999999999']) expect((await getAs(`${world.origin}/fediverse/reply.php?id=${id}`)).status, id).toBe(404);
    expect((await fetch(note_id, { method: 'POST', headers: { Accept: AP } })).status).toBe(405);
  });
});

describe('editing and deleting a reply to a remote post (docs/decisions/0246)', () => {
  it('an edit sends Update(Note) to the audience of the Create, and the id serves the new text', async () => {
    const max = await aUser(server.api);
    await peer.follow(actorOf(max));
    await drain();
    const noteId = strictNote();
    const { id, note_id } = (await reply(max, noteId, 'Frist')).body.reply;
    const res = await editReply(max, id, 'First');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.reply).toMatchObject({
      id,
      note_id,
      object_url: noteId,
      content: 'First',
      visibility: 'public',
      updated_at: expect.any(String),
    });
    await drain();
    const [update] = delivered('Update', max);
    expect(update?.verdict).toEqual({ ok: true, reason: 'verified', keyOwner: actorOf(max) });
    expect(update.activity).toMatchObject({
      to: 'as:Public',
      object: { id: note_id, type: 'Note', content: '<p>First</p>', inReplyTo: noteId },
    });
    expect(update.activity.object.updated).toEqual(expect.any(String));
    expect(peerGot('Update', max), "the replier's follower got it too").toHaveLength(1);
    expect(((await (await getAs(note_id)).json()) as any).content).toBe('<p>First</p>');
  });

  it('a delete sends Delete of a Tombstone to the audience of the Create; the id answers 404 after', async () => {
    const nia = await aUser(server.api);
    await peer.follow(actorOf(nia));
    await drain();
    const { id, note_id } = (await reply(nia, strictNote(), 'Regrets')).body.reply;
    const res = await deleteReply(nia, id);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ reply_id: id, deleted: true });
    await drain();
    const [del] = delivered('Delete', nia);
    expect(del?.verdict).toEqual({ ok: true, reason: 'verified', keyOwner: actorOf(nia) });
    expect(del.activity.object).toMatchObject({ id: note_id, type: 'Tombstone' });
    const [atPeer] = peerGot('Delete', nia);
    expect(atPeer?.objectId?.href, 'the Fedify peer verified and received it').toBe(note_id);
    expect((await getAs(note_id)).status).toBe(404);
    expect(await repliesOf(nia)).toEqual([]);
    const again = await deleteReply(nia, id);
    expect(again.status).toBe(404);
    expect(again.body.code).toBe('remote_reply_not_found');
  });

  it("a direct reply's Update and Delete go to the author alone", async () => {
    const oli = await aUser(server.api);
    await peer.follow(actorOf(oli));
    await drain();
    await makePrivate(oli);
    const { id } = (await reply(oli, strictNote(), 'Between us')).body.reply;
    expect((await editReply(oli, id, 'Between us two')).status).toBe(200);
    expect((await deleteReply(oli, id)).status).toBe(200);
    await drain();
    for (const type of ['Update', 'Delete']) {
      const [d] = delivered(type, oli);
      expect(d?.verdict.ok, type).toBe(true);
      expect(d.activity.to).toBe(strict.actorUrl);
      expect(JSON.stringify(d.activity)).not.toContain('Public');
      expect(peerGot(type, oli)).toEqual([]);
    }
  });

  it('twenty concurrent deletes remove the reply once and send one Delete, with no 500', async () => {
    const pam = await aUser(server.api);
    const { id } = (await reply(pam, strictNote(), 'Once')).body.reply;
    const answers = await Promise.all(Array.from({ length: 20 }, () => deleteReply(pam, id)));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.status !== 200).map((a) => a.body.code)).toEqual(Array(19).fill('remote_reply_not_found'));
    await drain();
    expect(delivered('Delete', pam)).toHaveLength(1);
  });

  it("another user's reply is 404 to edit and delete, and nothing changes or is sent; bad input is 400", async () => {
    const quin = await aUser(server.api);
    const rex = await aUser(server.api);
    const { id } = (await reply(quin, strictNote(), 'Mine')).body.reply;
    for (const res of [await editReply(rex, id, 'Yours now'), await deleteReply(rex, id)]) {
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('remote_reply_not_found');
    }
    expect((await repliesOf(quin)).map((r) => [r.content, r.updated_at])).toEqual([['Mine', null]]);
    for (const res of [
      await editReply(quin, 'abc', 'x'),
      await editReply(quin, id, '   '),
      await editReply(quin, id, 'x'.repeat(5001)),
      await deleteReply(quin, -1),
      await deleteReply(quin, undefined),
    ])
      expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect((await server.api.delete('fediverse.php?action=delete_remote_reply', { reply_id: id })).status).toBe(401);
    await drain();
    expect(delivered('Update', quin)).toEqual([]);
    expect(delivered('Delete', quin)).toEqual([]);
  });
});

describe('account data (docs/decisions/0090, 0246)', () => {
  it('export.php lists the reactions and replies to remote posts; deleting the account erases them', async () => {
    const sia = await aUser(server.api);
    const liked = strictNote();
    const answered = strictNote();
    expect((await react(sia, liked, 'wow')).status).toBe(200);
    const { id } = (await reply(sia, answered, 'For the archive')).body.reply;
    expect((await editReply(sia, id, 'For the archive, edited')).status).toBe(200);

    const exported = await server.api.get('export.php', { token: sia.token });
    expect(exported.status).toBe(200);
    expect(exported.body.fediverse_reactions).toEqual([
      { object_url: liked, actor_url: strict.actorUrl, reaction_type: 'wow', reacted_at: expect.any(String) },
    ]);
    expect(exported.body.fediverse_replies).toEqual([
      {
        id,
        object_url: answered,
        actor_url: strict.actorUrl,
        content: 'For the archive, edited',
        visibility: 'public',
        created_at: expect.any(String),
        updated_at: expect.any(String),
      },
    ]);

    expect((await server.api.post('delete_account.php', { password: sia.password }, { token: sia.token })).status).toBe(200);
    await server.mailSettled();
    const mail = server.mailer.sent.findLast((m) => m.to === sia.email)!;
    const link = /(http:\/\/\S+\/api\/v1\/delete_account\.php\?token=\S+)/.exec(mail.text)![1];
    expect((await fetch(link)).status).toBe(200);
    expect(await reactionsOf(sia)).toEqual([]);
    expect(await repliesOf(sia)).toEqual([]);
    expect((await getAs(`${world.origin}/fediverse/reply.php?id=${id}`)).status).toBe(404);
  });
});
