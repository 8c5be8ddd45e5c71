import { Like, Undo } from '@fedify/fedify';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FormClient } from '../support/form-client.js';
import {
  acceptPendingFollows,
  aComment,
  aCommunityGroup,
  aGroupComment,
  aGroupPost,
  aPost,
  aUser,
  type TestUser,
} from '../support/mothers.js';
import type { TestServer } from '../support/server.js';
import type { FedifyPeer } from '../support/fedify-peer.js';
import { FederationWorld } from '../support/federation-world.js';
import { newActivityId, type StrictServer } from '../support/strict-verifier.js';

/**
 * Comments both ways across servers (issue 29, items 2 and 3; docs/decisions/0240, 0241), against the
 * Fedify peer and the strict verifier of Mastodon's rules: a local comment on a federated post leaves
 * as a reply Note (Create, Update, Delete) for the post's audience and the thread's remote repliers,
 * and nothing leaves for a post that does not federate; remote likes and emoji reactions of a local
 * comment count on it, are listed and notified, and only their own actor's Undo takes them back.
 */
let world: FederationWorld;
let server: TestServer;
let peer: FedifyPeer;
let strict: StrictServer;
let origin: string;

const AS = 'https://www.w3.org/ns/activitystreams';
const PUBLIC = [AS + '#Public', 'as:Public', 'Public'];
const actorOf = (u: { username: string }) => world.actorOf(u);
const inboxOf = (u: { username: string }) => world.inboxOf(u);
const followersOf = (u: { username: string }) => `${origin}/fediverse/followers.php?username=${u.username}`;
const noteOf = (postId: number) => `${origin}/api/v1/posts.php?id=${postId}`;
const commentNoteOf = (commentId: number) => `${origin}/fediverse/comment.php?id=${commentId}`;
const drain = () => world.drain();
const list = (v: unknown): unknown[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);

beforeAll(async () => {
  world = await FederationWorld.start();
  ({ server, peer, strict, origin } = world);
});
afterAll(() => world?.close());

/** An activity from the strict verifier's actor to a local user's inbox. */
const fromStrict = (target: TestUser, activity: Record<string, unknown>) =>
  strict.signedPost(inboxOf(target), { '@context': AS, id: newActivityId(strict.origin), actor: strict.actorUrl, ...activity });
const strictFollows = async (u: TestUser) => {
  expect((await fromStrict(u, { type: 'Follow', object: actorOf(u) })).status).toBe(202);
  await drain();
};
/** What reached the strict verifier since `before`, about this object id (the activity's object or its id). */
const strictGot = (before: number, objectId: string) =>
  strict.deliveries.slice(before).filter((d) => {
    const o = d.activity?.object;
    return (typeof o === 'string' ? o : o?.id) === objectId;
  });
const peerGot = (before: number, objectId: string) => peer.received.slice(before).filter((a: any) => a.objectId?.href === objectId);
const commentsOf = async (u: TestUser, postId: number) =>
  (await server.api.get(`comments.php?post_id=${postId}`, { token: u.token })).body.data as any[];

describe('a local comment on a public post', () => {
  let alice: TestUser;
  let bob: TestUser;
  let postId: number;
  let commentId: number;
  let replyId: number;

  beforeAll(async () => {
    alice = await aUser(server.api);
    bob = await aUser(server.api);
    await peer.follow(actorOf(alice));
    await strictFollows(alice);
    await drain();
    postId = (await aPost(server.api, alice, { content: 'Talk to me' })).id;
    await drain();
  });

  it("reaches the post author's remote followers as Create(Note) in reply to the post, signed as the commenter", async () => {
    const [p, s] = [peer.received.length, strict.deliveries.length];
    commentId = (await aComment(server.api, bob, postId, { content: 'A comment from Plaza' })).id;
    await drain();
    const creates = peerGot(p, commentNoteOf(commentId));
    expect(creates.map((a) => a.constructor.name)).toEqual(['Create']);
    const note: any = await (creates[0] as any).getObject();
    expect(note.replyTargetId?.href).toBe(noteOf(postId));
    expect(note.attributionId?.href).toBe(actorOf(bob));
    expect(String(note.content)).toBe('<p>A comment from Plaza</p>');

    const [strictCreate] = strictGot(s, commentNoteOf(commentId));
    expect(strictCreate.verdict).toEqual({ ok: true, reason: 'verified', keyOwner: actorOf(bob) });
    expect(strictCreate.activity).toMatchObject({
      type: 'Create',
      actor: actorOf(bob),
      object: { type: 'Note', id: commentNoteOf(commentId), inReplyTo: noteOf(postId), attributedTo: actorOf(bob) },
    });
    expect(PUBLIC).toContain(list(strictCreate.activity.to)[0]);
    expect(list(strictCreate.activity.cc)).toEqual(expect.arrayContaining([followersOf(bob), followersOf(alice)]));
  });

  it("a reply answers the parent comment's Note", async () => {
    const s = strict.deliveries.length;
    replyId = (await aComment(server.api, alice, postId, { content: 'Answer', parent_id: commentId })).id;
    await drain();
    const [create] = strictGot(s, commentNoteOf(replyId));
    expect(create.verdict.ok, create.verdict.reason).toBe(true);
    expect(create.activity.object).toMatchObject({ inReplyTo: commentNoteOf(commentId), attributedTo: actorOf(alice) });
  });

  it('an edit is Update(Note) with the new text', async () => {
    const [p, s] = [peer.received.length, strict.deliveries.length];
    expect((await server.api.put(`comments.php?id=${commentId}`, { content: 'Edited on Plaza' }, { token: bob.token })).status).toBe(200);
    await drain();
    const [update] = strictGot(s, commentNoteOf(commentId));
    expect(update.verdict.ok, update.verdict.reason).toBe(true);
    expect(update.activity).toMatchObject({ type: 'Update', actor: actorOf(bob), object: { content: '<p>Edited on Plaza</p>' } });
    expect(peerGot(p, commentNoteOf(commentId)).map((a) => a.constructor.name)).toEqual(['Update']);
  });

  it('a deletion is Delete of a Tombstone, for the comment and the local reply below it', async () => {
    const [p, s] = [peer.received.length, strict.deliveries.length];
    expect((await server.api.delete(`comments.php?id=${commentId}`, undefined, { token: bob.token })).status).toBe(200);
    await drain();
    for (const [id, author] of [
      [commentId, bob],
      [replyId, alice],
    ] as const) {
      const [del] = strictGot(s, commentNoteOf(id));
      expect(del.verdict).toEqual({ ok: true, reason: 'verified', keyOwner: actorOf(author) });
      expect(del.activity).toMatchObject({ type: 'Delete', actor: actorOf(author), object: { type: 'Tombstone', id: commentNoteOf(id) } });
      expect(peerGot(p, commentNoteOf(id)).map((a) => a.constructor.name)).toEqual(['Delete']);
    }
  });
});

describe("a thread's remote repliers", () => {
  it('receive a local comment in the thread even without following; an answer to one names it in cc; their own replies are not sent back', async () => {
    const dave = await aUser(server.api);
    const erin = await aUser(server.api);
    await peer.follow(actorOf(dave));
    await drain();
    const postId = (await aPost(server.api, dave, { content: 'Who is there?' })).id;
    await drain();
    const p = peer.received.length;
    const strictNote = `${strict.origin}/notes/${randomUUID()}`;
    const reply = {
      type: 'Create',
      object: {
        id: strictNote,
        type: 'Note',
        attributedTo: strict.actorUrl,
        content: '<p>me</p>',
        inReplyTo: noteOf(postId),
        to: PUBLIC[0],
      },
    };
    expect((await fromStrict(dave, reply)).status).toBe(202);
    await drain();
    const [remote] = await commentsOf(dave, postId);
    expect(remote).toMatchObject({ is_remote: true, actor_url: strict.actorUrl });
    // Plaza does not relay a remote reply: the peer, a follower of dave, got nothing about it from Plaza.
    expect(peer.received.slice(p).filter((a: any) => a.objectId?.href === strictNote)).toEqual([]);

    const s = strict.deliveries.length;
    const commentId = (await aComment(server.api, erin, postId, { content: 'Hello you', parent_id: remote.id })).id;
    await drain();
    const [create] = strictGot(s, commentNoteOf(commentId));
    expect(create.verdict.ok, create.verdict.reason).toBe(true);
    expect(create.activity.object).toMatchObject({ inReplyTo: commentNoteOf(remote.id) });
    expect(list(create.activity.cc)).toContain(strict.actorUrl);
    expect(peerGot(p, commentNoteOf(commentId)).map((a) => a.constructor.name)).toEqual(['Create']);
  });
});

describe('posts whose comments stay here, or reach fewer', () => {
  it("a private account's post: the comment goes to its author's followers only, addressed to them, never to the commenter's", async () => {
    const carol = await aUser(server.api);
    const frank = await aUser(server.api);
    await server.database.db.updateTable('users').set({ is_private: 1 }).where('id', '=', carol.id).execute();
    await peer.follow(actorOf(carol));
    await drain();
    await acceptPendingFollows(server.api, carol);
    await drain();
    await strictFollows(frank);
    expect((await server.api.post('follows.php', { user_id: carol.id }, { token: frank.token })).status).toBeLessThan(300);
    const postId = (await aPost(server.api, carol, { content: 'followers only' })).id;
    await drain();

    const [p, s] = [peer.received.length, strict.deliveries.length];
    const commentId = (await aComment(server.api, frank, postId, { content: 'between us' })).id;
    await drain();
    const creates = peerGot(p, commentNoteOf(commentId));
    expect(creates.map((a) => a.constructor.name)).toEqual(['Create']);
    const create: any = creates[0];
    expect(create.toIds.map((u: URL) => u.href)).toEqual([followersOf(carol)]);
    expect(create.ccIds.map((u: URL) => u.href)).toEqual([]);
    // frank's own remote follower (the strict actor) may not see carol's post: it gets nothing.
    expect(strictGot(s, commentNoteOf(commentId))).toEqual([]);
  });

  it("a private account's post without remote followers, and a group post, send nothing", async () => {
    const gina = await aUser(server.api);
    const hank = await aUser(server.api);
    await server.database.db.updateTable('users').set({ is_private: 1 }).where('id', '=', gina.id).execute();
    await strictFollows(hank);
    expect((await server.api.post('follows.php', { user_id: gina.id }, { token: hank.token })).status).toBeLessThan(300);
    const postId = (await aPost(server.api, gina, { content: 'nobody out there' })).id;
    const group = await aCommunityGroup(server.api, hank);
    const groupPost = await aGroupPost(server.api, hank, group);
    await drain();
    const queued = async () =>
      Number(
        (
          await server.database.db
            .selectFrom('federation_queue')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await queued();
    const s = strict.deliveries.length;
    const commentId = (await aComment(server.api, hank, postId, { content: 'private words' })).id;
    await aGroupComment(server.api, hank, groupPost, { content: 'group words' });
    expect(await queued()).toBe(before);
    await drain();
    expect(strictGot(s, commentNoteOf(commentId))).toEqual([]);
    expect(strict.deliveries.slice(s).filter((d) => d.activity?.actor === actorOf(hank))).toEqual([]);
    // The same commenter on a public post of his own does reach his remote follower (the control).
    const own = (await aPost(server.api, hank, { content: 'public' })).id;
    await drain();
    const control = (await aComment(server.api, hank, own, { content: 'public words' })).id;
    expect(await queued()).toBeGreaterThan(before);
    await drain();
    expect(strictGot(s, commentNoteOf(control)).map((d) => d.activity.type)).toEqual(['Create']);
  });
});

describe('remote reactions on a local comment', () => {
  let ivy: TestUser;
  let jon: TestUser;
  let postId: number;
  let commentId: number;
  let likeId: string;

  const commentNow = async () => (await commentsOf(ivy, postId)).find((c) => c.id === commentId);
  const reactionsList = async () => {
    const res = await server.api.get(`comment_reactions.php?comment_id=${commentId}&comment_type=post`, { token: ivy.token });
    expect(res.status).toBe(200);
    return res.body.data as any[];
  };

  beforeAll(async () => {
    ivy = await aUser(server.api);
    jon = await aUser(server.api);
    postId = (await aPost(server.api, ivy, { content: 'react to the comment' })).id;
    commentId = (await aComment(server.api, jon, postId, { content: 'like me' })).id;
  });

  it('a Like counts on the comment, is listed with the remote handle and notifies its author; a repeated Like counts once', async () => {
    const like = await peer.deliver(
      actorOf(jon),
      (actor, o) => new Like({ id: new URL(`${o}/likes/${randomUUID()}`), actor, object: new URL(commentNoteOf(commentId)) }),
    );
    likeId = like.id!.href;
    await peer.deliver(actorOf(jon), (actor) => new Like({ id: new URL(likeId), actor, object: new URL(commentNoteOf(commentId)) }));
    await drain();
    expect((await commentNow()).reactions_count).toBe(1);
    const host = new URL(peer.origin).host;
    expect(await reactionsList()).toEqual([
      expect.objectContaining({
        user_id: 0,
        username: `peer@${host}`,
        reaction_type: 'like',
        is_remote: true,
        handle: `@peer@${host}`,
        actor_url: peer.actorUrl,
        user: expect.objectContaining({ id: 0, username: `peer@${host}` }),
      }),
    ]);
    const notices = (await server.api.get('notifications.php', { token: jon.token })).body.notifications as any[];
    expect(notices.map((n) => [n.type, n.post_id, n.comment_id, n.content])).toEqual([
      ['reaction', postId, commentId, `@peer@${host} reacted to your comment`],
    ]);
  });

  it("an emoji reaction is the matching reaction, listed beside a local user's", async () => {
    const res = await fromStrict(jon, {
      '@context': [AS, { litepub: 'http://litepub.social/ns#', EmojiReact: 'litepub:EmojiReact' }],
      type: 'EmojiReact',
      object: commentNoteOf(commentId),
      content: '😂',
    });
    expect(res.status).toBe(202);
    await drain();
    expect(
      (
        await server.api.post(
          'comment_reactions.php',
          { comment_id: commentId, comment_type: 'post', reaction_type: 'love' },
          { token: ivy.token },
        )
      ).status,
    ).toBeLessThan(300);
    expect((await commentNow()).reactions_count).toBe(3);
    expect((await reactionsList()).map((r) => [r.user_id, r.reaction_type, r.is_remote ?? false]).sort()).toEqual(
      [
        [0, 'haha', true],
        [0, 'like', true],
        [ivy.id, 'love', false],
      ].sort(),
    );
  });

  it("a forged Undo of the peer's Like (signed by another actor) changes nothing; the peer's own Undo removes it", async () => {
    expect(
      (
        await fromStrict(jon, {
          type: 'Undo',
          object: { id: likeId, type: 'Like', actor: peer.actorUrl, object: commentNoteOf(commentId) },
        })
      ).status,
    ).toBe(202);
    expect((await fromStrict(jon, { type: 'Undo', object: likeId })).status).toBe(202);
    await drain();
    expect((await commentNow()).reactions_count).toBe(3);
    await peer.deliver(
      actorOf(jon),
      (actor, o) =>
        new Undo({
          id: new URL(`${o}/undos/${randomUUID()}`),
          actor,
          object: new Like({ id: new URL(likeId), actor, object: new URL(commentNoteOf(commentId)) }),
        }),
    );
    await drain();
    expect((await commentNow()).reactions_count).toBe(2);
    expect((await reactionsList()).some((r) => r.actor_url === peer.actorUrl)).toBe(false);
  });

  it("a private account's comment takes no reaction from a non-follower; from a follower it does", async () => {
    const kim = await aUser(server.api);
    await server.database.db.updateTable('users').set({ is_private: 1 }).where('id', '=', kim.id).execute();
    const hidden = (await aComment(server.api, kim, (await aPost(server.api, kim, { content: 'mine' })).id)).id;
    const count = async () =>
      Number(
        (await server.database.db.selectFrom('comments').select('reactions_count').where('id', '=', hidden).executeTakeFirstOrThrow())
          .reactions_count,
      );
    expect((await fromStrict(kim, { type: 'Like', object: commentNoteOf(hidden) })).status).toBe(202);
    await drain();
    expect(await count()).toBe(0);
    await strictFollows(kim);
    await acceptPendingFollows(server.api, kim);
    await drain();
    expect((await fromStrict(kim, { type: 'Like', object: commentNoteOf(hidden) })).status).toBe(202);
    await drain();
    expect(await count()).toBe(1);
  });

  it('deleting the comment takes its remote reactions along', async () => {
    const stored = () =>
      server.database.db.selectFrom('remote_comment_reactions').selectAll().where('comment_id', '=', commentId).execute();
    expect(await stored()).toHaveLength(1);
    expect((await server.api.delete(`comments.php?id=${commentId}`, undefined, { token: jon.token })).status).toBe(200);
    expect(await stored()).toEqual([]);
  });

  // Last: the block removes the loopback servers' follows for the rest of this file.
  it('a Like from a suspended domain is refused and counts nothing', async () => {
    const admin = await aUser(server.api);
    await server.database.db.updateTable('users').set({ is_admin: 1 }).where('id', '=', admin.id).execute();
    const form = new FormClient(server.url);
    await form.signIn(admin.username, admin.password);
    await form.get('/admin/federation.php');
    await form.post('/admin/federation.php', { action: 'block', domain: '127.0.0.1', severity: 'suspend', reason: 'test' });
    const target = (await aComment(server.api, jon, postId, { content: 'after the block' })).id;
    const res = await fromStrict(jon, { type: 'Like', object: commentNoteOf(target) });
    // An inbox refuses a suspended server's deliveries (docs/decisions/0106).
    expect(res.status).toBeGreaterThanOrEqual(400);
    await drain();
    const row = await server.database.db
      .selectFrom('comments')
      .select('reactions_count')
      .where('id', '=', target)
      .executeTakeFirstOrThrow();
    expect(Number(row.reactions_count)).toBe(0);
  });
});
