import { Announce, Create, Delete, Like, Note, PUBLIC_COLLECTION, Undo, Update } from '@fedify/fedify';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acceptPendingFollows, aComment, aPost, aUser, type TestUser } from '../support/mothers.js';
import type { TestServer } from '../support/server.js';
import type { FedifyPeer } from '../support/fedify-peer.js';
import { FederationWorld } from '../support/federation-world.js';
import { newActivityId, type StrictServer } from '../support/strict-verifier.js';

/**
 * Inbound interactions (issue 29, item 2) end to end: a Fedify peer and the strict verifier's actor
 * reply to, like, react to and boost Plaza posts, take them back, edit and delete their replies,
 * update and delete their accounts; forged Undos and Deletes signed by someone else change nothing.
 */
let world: FederationWorld;
let server: TestServer;
let peer: FedifyPeer;
let strict: StrictServer;
let origin: string;

const AS = 'https://www.w3.org/ns/activitystreams';
const actorOf = (u: { username: string }) => world.actorOf(u);
const inboxOf = (u: { username: string }) => world.inboxOf(u);
const noteOf = (postId: number) => `${origin}/api/v1/posts.php?id=${postId}`;
const commentNoteOf = (commentId: number) => `${origin}/fediverse/comment.php?id=${commentId}`;
const drain = () => world.drain();

beforeAll(async () => {
  world = await FederationWorld.start();
  ({ server, peer, strict, origin } = world);
});
afterAll(() => world?.close());

const comments = async (u: TestUser, postId: number) => {
  const res = await server.api.get(`comments.php?post_id=${postId}`, { token: u.token });
  expect(res.status).toBe(200);
  return res.body.data as any[];
};
const postOf = async (u: TestUser, postId: number) => (await server.api.get(`posts.php?id=${postId}`, { token: u.token })).body.data;

/** A reply Note from the peer, as Create. */
const peerReply =
  (inReplyTo: string, html: string, noteId = `${peer.origin}/notes/${randomUUID()}`) =>
  (actor: URL) =>
    new Create({
      id: new URL(`${noteId}#create-${randomUUID()}`),
      actor,
      tos: [PUBLIC_COLLECTION],
      object: new Note({
        id: new URL(noteId),
        attribution: actor,
        content: html,
        replyTarget: new URL(inReplyTo),
        tos: [PUBLIC_COLLECTION],
      }),
    });

/** An activity from the strict verifier's actor. */
const fromStrict = (target: TestUser, activity: Record<string, unknown>) =>
  strict.signedPost(inboxOf(target), { '@context': AS, id: newActivityId(strict.origin), actor: strict.actorUrl, ...activity });

describe('replies become comments by their remote author', () => {
  let alice: TestUser;
  let postId: number;
  let noteId: string;

  beforeAll(async () => {
    alice = await aUser(server.api);
    postId = (await aPost(server.api, alice, { content: 'A post from Plaza' })).id;
    noteId = `${peer.origin}/notes/${randomUUID()}`;
    await peer.deliver(actorOf(alice), peerReply(noteOf(postId), '<p>Hello <b>Plaza</b><script>alert(1)</script></p>', noteId));
    await drain();
  });

  it('lists the reply with the remote handle, name, is_remote, user_id 0 and sanitised text; counts it', async () => {
    const list = await comments(alice, postId);
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({
      post_id: postId,
      user_id: 0,
      parent_id: null,
      content: 'Hello Plaza',
      username: `peer@${new URL(peer.origin).host}`,
      handle: `@peer@${new URL(peer.origin).host}`,
      display_name: 'Fedify Peer',
      is_remote: true,
      actor_url: peer.actorUrl,
      reactions_count: 0,
      has_reacted: false,
      replies: [],
    });
    expect(typeof list[0].id).toBe('number');
    expect((await postOf(alice, postId)).comments_count).toBe(1);
    // The post's author is told, as for a local comment; the notice names the remote handle.
    const notices = (await server.api.get('notifications.php', { token: alice.token })).body.notifications as any[];
    expect(notices).toEqual([
      expect.objectContaining({
        type: 'comment',
        post_id: postId,
        from_user_id: expect.any(Number),
        content: `@peer@${new URL(peer.origin).host} commented on your post`,
      }),
    ]);
  });

  it('a local comment keeps its shape (no remote fields); a local reply to the remote comment nests under it', async () => {
    const [remote] = await comments(alice, postId);
    const bob = await aUser(server.api);
    expect(
      (await server.api.post('comments.php', { post_id: postId, content: 'local answer', parent_id: remote.id }, { token: bob.token }))
        .status,
    ).toBeLessThan(300);
    const [again] = await comments(alice, postId);
    expect(again.replies).toHaveLength(1);
    expect(again.replies[0]).toMatchObject({ user_id: bob.id, content: 'local answer' });
    expect(again.replies[0]).not.toHaveProperty('is_remote');
    // Nobody local may edit the remote comment: it is no one's here.
    expect((await server.api.put(`comments.php?id=${remote.id}`, { content: 'mine now' }, { token: alice.token })).status).toBe(403);
  });

  it('the same Note delivered again (another activity id) stays one comment', async () => {
    await peer.deliver(actorOf(alice), peerReply(noteOf(postId), '<p>Hello again</p>', noteId));
    await drain();
    const list = await comments(alice, postId);
    expect(list.filter((c) => c.is_remote)).toHaveLength(1);
    expect(list[0].content).toBe('Hello Plaza');
  });

  it('a reply to a comment nests under it', async () => {
    const [root] = await comments(alice, postId);
    await peer.deliver(actorOf(alice), peerReply(commentNoteOf(root.id), '<p>nested</p>'));
    await drain();
    const [after] = await comments(alice, postId);
    expect(after.replies.map((r: any) => [r.content, r.is_remote ?? false])).toEqual([
      ['local answer', false],
      ['nested', true],
    ]);
  });

  it('Update(Note) by its author edits it; an Update or Delete signed by another actor changes nothing', async () => {
    const forgedUpdate = await fromStrict(alice, {
      type: 'Update',
      object: { id: noteId, type: 'Note', attributedTo: peer.actorUrl, content: '<p>forged</p>', inReplyTo: noteOf(postId) },
    });
    expect(forgedUpdate.status).toBe(202);
    const forgedDelete = await fromStrict(alice, { type: 'Delete', object: noteId });
    expect(forgedDelete.status).toBe(202);
    await drain();
    expect((await comments(alice, postId))[0].content).toBe('Hello Plaza');

    await peer.deliver(
      actorOf(alice),
      (actor) =>
        new Update({
          id: new URL(`${noteId}#update-${randomUUID()}`),
          actor,
          object: new Note({
            id: new URL(noteId),
            attribution: actor,
            content: '<p>Edited <i>text</i></p>',
            replyTarget: new URL(noteOf(postId)),
          }),
        }),
    );
    await drain();
    expect((await comments(alice, postId))[0].content).toBe('Edited text');
  });

  it('Delete(Note) by its author removes the comment with the replies below it', async () => {
    const before = (await postOf(alice, postId)).comments_count;
    expect(before).toBe(3);
    await peer.deliver(actorOf(alice), (actor) => new Delete({ id: new URL(`${noteId}#delete`), actor, object: new URL(noteId) }));
    await drain();
    expect(await comments(alice, postId)).toEqual([]);
    expect((await postOf(alice, postId)).comments_count).toBe(0);
  });

  it('a reply to an unknown local object, or to no local one, is dropped (202)', async () => {
    await peer.deliver(actorOf(alice), peerReply(`${origin}/api/v1/posts.php?id=987654321`, '<p>to nothing</p>'));
    await peer.deliver(actorOf(alice), peerReply(`${origin}/fediverse/comment.php?id=987654321`, '<p>to nothing</p>'));
    const res = await fromStrict(alice, {
      type: 'Create',
      object: {
        id: `${strict.origin}/notes/${randomUUID()}`,
        type: 'Note',
        attributedTo: strict.actorUrl,
        content: 'x',
        inReplyTo: `${origin}/api/v1/posts.php?id=987654322`,
      },
    });
    expect(res.status).toBe(202);
    await drain();
    const count = await server.database.db.selectFrom('comments').select('id').where('remote_actor_url', 'is not', null).execute();
    expect(count).toHaveLength(0);
  });
});

describe("a private account's posts take replies from its followers only", () => {
  it('a reply from a non-follower is dropped; from a follower it is stored', async () => {
    const carol = await aUser(server.api);
    await server.database.db.updateTable('users').set({ is_private: 1 }).where('id', '=', carol.id).execute();
    const postId = (await aPost(server.api, carol, { content: 'followers only' })).id;
    const reply = (content: string) =>
      fromStrict(carol, {
        type: 'Create',
        object: {
          id: `${strict.origin}/notes/${randomUUID()}`,
          type: 'Note',
          attributedTo: strict.actorUrl,
          content,
          inReplyTo: noteOf(postId),
        },
      });
    expect((await reply('<p>not a follower</p>')).status).toBe(202);
    await drain();
    expect(await comments(carol, postId)).toEqual([]);

    expect((await fromStrict(carol, { type: 'Follow', object: actorOf(carol) })).status).toBe(202);
    await drain();
    // A private account approves its remote followers (docs/decisions/0210).
    await acceptPendingFollows(server.api, carol);
    await drain();
    expect((await reply('<p>a follower</p>')).status).toBe(202);
    await drain();
    expect((await comments(carol, postId)).map((c) => [c.content, c.username])).toEqual([
      ['a follower', `strict@${new URL(strict.origin).host}`],
    ]);
  });
});

describe('likes, emoji reactions and boosts', () => {
  let dave: TestUser;
  let postId: number;
  let likeId: string;

  beforeAll(async () => {
    dave = await aUser(server.api);
    postId = (await aPost(server.api, dave, { content: 'like me' })).id;
  });

  it('Like counts as a like reaction; a repeated Like counts once', async () => {
    const like = await peer.deliver(
      actorOf(dave),
      (actor, o) => new Like({ id: new URL(`${o}/likes/${randomUUID()}`), actor, object: new URL(noteOf(postId)) }),
    );
    likeId = like.id!.href;
    await peer.deliver(actorOf(dave), (actor) => new Like({ id: new URL(likeId), actor, object: new URL(noteOf(postId)) }));
    await drain();
    expect((await postOf(dave, postId)).likes_count).toBe(1);
    const counts = await server.api.get(`reactions.php?post_id=${postId}`, { token: dave.token });
    expect(counts.body.reactions).toMatchObject({ like: 1 });
    const notices = (await server.api.get('notifications.php', { token: dave.token })).body.notifications as any[];
    expect(notices.map((n) => [n.type, n.post_id, n.content])).toEqual([
      ['like', postId, `@peer@${new URL(peer.origin).host} liked your post`],
    ]);
  });

  it("Misskey's emoji Like and EmojiReact map to the matching reaction, or like", async () => {
    expect((await fromStrict(dave, { type: 'Like', object: noteOf(postId), content: '❤️', _misskey_reaction: '❤️' })).status).toBe(202);
    await drain();
    let counts = (await server.api.get(`reactions.php?post_id=${postId}`, { token: dave.token })).body.reactions;
    expect(counts).toMatchObject({ like: 1, love: 1 });
    // The same actor's next reaction replaces the first.
    expect(
      (
        await fromStrict(dave, {
          '@context': [AS, { litepub: 'http://litepub.social/ns#', EmojiReact: 'litepub:EmojiReact' }],
          type: 'EmojiReact',
          object: noteOf(postId),
          content: '😂',
        })
      ).status,
    ).toBe(202);
    await drain();
    counts = (await server.api.get(`reactions.php?post_id=${postId}`, { token: dave.token })).body.reactions;
    expect(counts).toMatchObject({ like: 1, haha: 1 });
    expect(counts.love ?? 0).toBe(0);
    expect((await postOf(dave, postId)).likes_count).toBe(2);
  });

  it("a forged Undo of the peer's Like (signed by another actor), embedded or by id, changes nothing", async () => {
    expect(
      (await fromStrict(dave, { type: 'Undo', object: { id: likeId, type: 'Like', actor: peer.actorUrl, object: noteOf(postId) } })).status,
    ).toBe(202);
    expect((await fromStrict(dave, { type: 'Undo', object: likeId })).status).toBe(202);
    await drain();
    expect((await postOf(dave, postId)).likes_count).toBe(2);
  });

  it('Undo(Like) by its actor removes exactly that reaction', async () => {
    await peer.deliver(
      actorOf(dave),
      (actor, o) =>
        new Undo({
          id: new URL(`${o}/undos/${randomUUID()}`),
          actor,
          object: new Like({ id: new URL(likeId), actor, object: new URL(noteOf(postId)) }),
        }),
    );
    await drain();
    expect((await postOf(dave, postId)).likes_count).toBe(1);
    expect((await server.api.get(`reactions.php?post_id=${postId}`, { token: dave.token })).body.reactions).toMatchObject({ haha: 1 });
  });

  it('Announce counts as a share once; a forged Undo changes nothing; Undo(Announce) by its actor removes it', async () => {
    const announceId = `${peer.origin}/announces/${randomUUID()}`;
    const announce = (actor: URL) =>
      new Announce({ id: new URL(announceId), actor, object: new URL(noteOf(postId)), tos: [PUBLIC_COLLECTION] });
    await peer.deliver(actorOf(dave), announce);
    await peer.deliver(actorOf(dave), announce);
    await drain();
    expect((await postOf(dave, postId)).shares_count).toBe(1);
    const notices = (await server.api.get('notifications.php', { token: dave.token })).body.notifications as any[];
    expect(notices.filter((n) => n.type === 'share').map((n) => n.content)).toEqual([
      `@peer@${new URL(peer.origin).host} shared your post`,
    ]);
    expect(
      (await fromStrict(dave, { type: 'Undo', object: { id: announceId, type: 'Announce', actor: peer.actorUrl, object: noteOf(postId) } }))
        .status,
    ).toBe(202);
    await drain();
    expect((await postOf(dave, postId)).shares_count).toBe(1);
    await peer.deliver(
      actorOf(dave),
      (actor, o) => new Undo({ id: new URL(`${o}/undos/${randomUUID()}`), actor, object: announce(actor) }),
    );
    await drain();
    expect((await postOf(dave, postId)).shares_count).toBe(0);
  });

  it('an activity type Plaza does not handle answers 202 and stores nothing', async () => {
    const res = await fromStrict(dave, { type: 'Arrive', location: { type: 'Place', name: 'here' } });
    expect(res.status).toBe(202);
    await drain();
  });
});

describe("a local user's account deletion (docs/decisions/0226)", () => {
  it("recounts the post's likes and shares and the comment's reactions keeping the remote ones", async () => {
    const [gil, hal] = [await aUser(server.api), await aUser(server.api)];
    const postId = (await aPost(server.api, gil, { content: 'liked from both sides' })).id;
    const commentId = (await aComment(server.api, gil, postId, { content: 'and this one' })).id;
    await peer.deliver(
      actorOf(gil),
      (actor, o) => new Like({ id: new URL(`${o}/likes/${randomUUID()}`), actor, object: new URL(noteOf(postId)) }),
    );
    await peer.deliver(
      actorOf(gil),
      (actor, o) => new Like({ id: new URL(`${o}/likes/${randomUUID()}`), actor, object: new URL(commentNoteOf(commentId)) }),
    );
    expect((await fromStrict(gil, { type: 'Announce', object: noteOf(postId) })).status).toBe(202);
    await drain();
    expect((await server.api.post('likes.php', { post_id: postId }, { token: hal.token })).status).toBe(200);
    expect((await server.api.post('shares.php', { post_id: postId }, { token: hal.token })).status).toBe(200);
    const react = await server.api.post(
      'comment_reactions.php',
      { comment_id: commentId, comment_type: 'post', reaction_type: 'wow' },
      { token: hal.token },
    );
    expect(react.status).toBe(200);
    const commentNow = async () => (await comments(gil, postId)).find((c) => c.id === commentId);
    expect(await postOf(gil, postId)).toMatchObject({ likes_count: 2, shares_count: 2 });
    expect((await commentNow()).reactions_count).toBe(2);

    expect((await server.api.post('delete_account.php', { password: hal.password }, { token: hal.token })).status).toBe(200);
    await server.mailSettled();
    const mail = server.mailer.sent.findLast((m) => m.to === hal.email)!;
    const link = /(http:\/\/\S+\/api\/v1\/delete_account\.php\?token=\S+)/.exec(mail.text)![1];
    expect((await fetch(link)).status).toBe(200);

    expect(await postOf(gil, postId)).toMatchObject({ likes_count: 1, shares_count: 1 });
    expect((await server.api.get(`reactions.php?post_id=${postId}`, { token: gil.token })).body.reactions).toEqual({ like: 1 });
    expect((await commentNow()).reactions_count).toBe(1);
    const listed = await server.api.get(`comment_reactions.php?comment_id=${commentId}&comment_type=post`, { token: gil.token });
    expect((listed.body.data as any[]).map((r) => [r.reaction_type, r.is_remote])).toEqual([['like', true]]);
  });
});

describe('account lifecycle of remote actors', () => {
  it("Update(Person) refreshes the cached actor; an Update of someone else's actor changes nothing", async () => {
    const erin = await aUser(server.api);
    const postId = (await aPost(server.api, erin, { content: 'lifecycle' })).id;
    await fromStrict(erin, {
      type: 'Create',
      object: {
        id: `${strict.origin}/notes/${randomUUID()}`,
        type: 'Note',
        attributedTo: strict.actorUrl,
        content: 'hi',
        inReplyTo: noteOf(postId),
      },
    });
    await drain();
    expect((await comments(erin, postId))[0].display_name).toBe('Strict Verifier');

    const person = (id: string, name: string) => ({
      id,
      type: 'Person',
      preferredUsername: 'strict',
      name,
      inbox: `${strict.origin}/inbox`,
    });
    expect((await fromStrict(erin, { type: 'Update', object: person(peer.actorUrl, 'Hijacked') })).status).toBe(202);
    expect((await fromStrict(erin, { type: 'Update', object: person(strict.actorUrl, 'Renamed <script>x</script>') })).status).toBe(202);
    await drain();
    expect((await comments(erin, postId))[0].display_name).toBe('Renamed <script>x</script>');
    const peerActor = await server.database.db
      .selectFrom('remote_actors')
      .select('display_name')
      .where('actor_url', '=', peer.actorUrl)
      .executeTakeFirst();
    expect(peerActor?.display_name).toBe('Fedify Peer');
  });

  it('Delete(Person) signed by someone else changes nothing; signed by the actor, removes its follows, comments and reactions', async () => {
    const fay = await aUser(server.api);
    const postId = (await aPost(server.api, fay, { content: 'to be answered' })).id;
    await peer.deliver(actorOf(fay), peerReply(noteOf(postId), '<p>peer was here</p>'));
    await peer.deliver(
      actorOf(fay),
      (actor, o) => new Like({ id: new URL(`${o}/likes/${randomUUID()}`), actor, object: new URL(noteOf(postId)) }),
    );
    await fromStrict(fay, { type: 'Follow', object: actorOf(fay) });
    await fromStrict(fay, { type: 'Like', object: noteOf(postId) });
    await fromStrict(fay, { type: 'Announce', object: noteOf(postId) });
    await fromStrict(fay, {
      type: 'Create',
      object: {
        id: `${strict.origin}/notes/${randomUUID()}`,
        type: 'Note',
        attributedTo: strict.actorUrl,
        content: 'strict was here',
        inReplyTo: noteOf(postId),
      },
    });
    await drain();
    expect(await postOf(fay, postId)).toMatchObject({ likes_count: 2, shares_count: 1, comments_count: 2 });

    // The strict actor signs a Delete of the peer's account: not its own, nothing happens.
    expect((await fromStrict(fay, { type: 'Delete', object: peer.actorUrl })).status).toBe(202);
    await drain();
    expect(await postOf(fay, postId)).toMatchObject({ likes_count: 2, comments_count: 2 });

    expect((await fromStrict(fay, { type: 'Delete', object: strict.actorUrl })).status).toBe(202);
    await drain();
    expect(await postOf(fay, postId)).toMatchObject({ likes_count: 1, shares_count: 0, comments_count: 1 });
    expect((await comments(fay, postId)).map((c) => c.content)).toEqual(['peer was here']);
    const follows = await server.database.db
      .selectFrom('remote_followers')
      .select('user_id')
      .where('actor_url', '=', strict.actorUrl)
      .execute();
    expect(follows).toEqual([]);
  });
});
