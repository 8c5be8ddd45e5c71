import { describe, expect, it } from 'vitest';
import { InMemoryUserRepository } from '../accounts/testing/in-memory-accounts.js';
import { aNewUser } from '../accounts/testing/mothers.js';
import type { UserRecord } from '../accounts/user.js';
import type { PostRecord } from '../content/model.js';
import { InMemoryCommentRepository, InMemoryContentStore, InMemoryPostRepository } from '../content/testing/in-memory-content.js';
import { InMemoryFollowRepository } from '../social/testing/in-memory-social.js';
import { FederationCommentListener } from './comment-listener.js';
import type { FederationOutbox, OutboundComment } from './ports.js';
import {
  aRemoteActor,
  InMemoryRemoteActorRepository,
  InMemoryRemoteFollowRepository,
  InMemoryRemoteInteractionRepository,
  InMemoryRemotePostRepository,
} from './testing/index.js';

const at = '2026-11-27 10:00:00';

/** What the listener queued: kind, comment id, and whom it reaches. */
class RecordingOutbox implements Pick<FederationOutbox, 'comment'> {
  readonly sent: { kind: string; id: number; followersOf: number[]; inboxes: string[]; ccs: string[]; audience: string }[] = [];
  async comment(kind: 'create' | 'update' | 'delete', c: OutboundComment) {
    const { followersOf, inboxes, ccs, audience } = c;
    this.sent.push({ kind, id: c.comment.id, followersOf, inboxes, ccs, audience });
  }
}

async function world() {
  const users = new InMemoryUserRepository();
  const store = new InMemoryContentStore(users, new InMemoryFollowRepository());
  const posts = new InMemoryPostRepository(store);
  const comments = new InMemoryCommentRepository(store);
  const actors = new InMemoryRemoteActorRepository();
  const follows = new InMemoryRemoteFollowRepository(actors);
  const remote = new InMemoryRemoteInteractionRepository(store, actors, follows, new InMemoryRemotePostRepository(follows));
  const outbox = new RecordingOutbox();
  const listener = new FederationCommentListener(users, follows, actors, remote, comments, outbox as unknown as FederationOutbox);
  const owner = await users.create(aNewUser());
  const commenter = await users.create(aNewUser());
  const post = await posts.create({ user_id: owner.id, content: 'p', media: [], media_type: null, tags: [], created_at: at });
  const follower = aRemoteActor(1);
  await actors.upsert(follower);
  const followedBy = (u: UserRecord, actor = follower) =>
    follows.addFollower({ user_id: u.id, actor_url: actor.actor_url, follow_id: `${actor.actor_url}/follows/${u.id}`, followed_at: at });
  const comment = (by: UserRecord, parent: number | null = null) =>
    comments.create({ post_id: post.id, user_id: by.id, parent_id: parent, content: 'c', created_at: at });
  const makePrivate = (u: UserRecord) => users.setPrivacy(u.id, { is_private: true });
  return {
    users,
    owner,
    commenter,
    post: post as PostRecord,
    remote,
    actors,
    outbox,
    listener,
    followedBy,
    comment,
    makePrivate,
    comments,
  };
}

describe('FederationCommentListener (docs/decisions/0240)', () => {
  it("sends a public post's comment to both accounts' followers; nothing when nobody outside would receive it", async () => {
    const w = await world();
    const quiet = await w.comment(w.commenter);
    await w.listener.written({ comment: quiet, post: w.post });
    expect(w.outbox.sent).toEqual([]);
    await w.followedBy(w.owner);
    const c = await w.comment(w.commenter);
    await w.listener.written({ comment: c, post: w.post });
    await w.listener.edited({ comment: c, post: w.post });
    expect(w.outbox.sent).toEqual([
      { kind: 'create', id: c.id, followersOf: [w.owner.id, w.commenter.id], inboxes: [], ccs: [], audience: 'public' },
      { kind: 'update', id: c.id, followersOf: [w.owner.id, w.commenter.id], inboxes: [], ccs: [], audience: 'public' },
    ]);
  });

  it("reaches a public thread's remote repliers, names the one answered, and never re-sends a remote reply", async () => {
    const w = await world();
    const replier = aRemoteActor(2);
    await w.actors.upsert(replier);
    const theirs = await w.remote.addComment({
      post_id: w.post.id,
      parent_id: null,
      actor_url: replier.actor_url,
      object_id: `${replier.actor_url}/notes/1`,
      content: 'remote',
      created_at: at,
    });
    const remoteComment = (await w.comments.findById(theirs!))!;
    await w.listener.written({ comment: remoteComment, post: w.post });
    expect(w.outbox.sent).toEqual([]);
    const answer = await w.comment(w.commenter, theirs);
    await w.listener.written({ comment: answer, post: w.post });
    expect(w.outbox.sent).toEqual([
      {
        kind: 'create',
        id: answer.id,
        followersOf: [w.owner.id, w.commenter.id],
        inboxes: [replier.shared_inbox_url],
        ccs: [replier.actor_url],
        audience: 'public',
      },
    ]);
  });

  it("keeps a private account's post's comment to its author's followers, and to no remote replier who left them", async () => {
    const w = await world();
    await w.makePrivate(w.owner);
    await w.followedBy(w.commenter);
    const alone = await w.comment(w.commenter);
    await w.listener.written({ comment: alone, post: w.post });
    expect(w.outbox.sent).toEqual([]);
    const replier = aRemoteActor(3);
    await w.actors.upsert(replier);
    const theirs = await w.remote.addComment({
      post_id: w.post.id,
      parent_id: null,
      actor_url: replier.actor_url,
      object_id: `${replier.actor_url}/notes/1`,
      content: 'remote',
      created_at: at,
    });
    await w.followedBy(w.owner);
    const answer = await w.comment(w.commenter, theirs);
    await w.listener.written({ comment: answer, post: w.post });
    expect(w.outbox.sent).toEqual([
      { kind: 'create', id: answer.id, followersOf: [w.owner.id], inboxes: [], ccs: [], audience: 'followers' },
    ]);
  });

  it('removal sends Delete for the comment and each local reply below it', async () => {
    const w = await world();
    await w.followedBy(w.owner);
    const root = await w.comment(w.commenter);
    const reply = await w.comment(w.owner, root.id);
    const deeper = await w.comment(w.commenter, reply.id);
    await w.listener.removed({ comment: root, post: w.post });
    expect(w.outbox.sent.map((s) => [s.kind, s.id])).toEqual([
      ['delete', root.id],
      ['delete', reply.id],
      ['delete', deeper.id],
    ]);
  });
});
