import { describe, expect, it } from 'vitest';
import type { UserRepository } from '../../accounts/ports.js';
import { aNewUser } from '../../accounts/testing/mothers.js';
import type { CommentRepository, PostRepository } from '../../content/ports.js';
import type { RemoteInteractionRepository } from '../inbound-ports.js';
import type { RemoteActorRepository, RemoteFollowRepository } from '../ports.js';
import { aRemoteActor } from './federation.contract.js';

export interface RemoteInteractionPorts {
  users: UserRepository;
  posts: PostRepository;
  comments: CommentRepository;
  actors: RemoteActorRepository;
  follows: RemoteFollowRepository;
  remote: RemoteInteractionRepository;
}

const at = '2026-11-27 10:00:00';

/** Remote replies, reactions and boosts (docs/decisions/0205), held to the same behaviour in memory and on SQL. */
export function remoteInteractionsContract(name: string, make: () => Promise<RemoteInteractionPorts>) {
  const setup = async () => {
    const ports = await make();
    const user = await ports.users.create(aNewUser());
    const post = await ports.posts.create({ user_id: user.id, content: 'p', media: [], media_type: null, tags: [], created_at: at });
    const actor = aRemoteActor(Math.floor(Math.random() * 1e9));
    await ports.actors.upsert(actor);
    return { ...ports, user, post, actor: actor.actor_url };
  };
  const counts = async (posts: PostRepository, id: number) => {
    const p = await posts.findById(id);
    return { likes: p?.likes_count, comments: p?.comments_count, shares: p?.shares_count };
  };

  describe(`${name}: remote interactions`, () => {
    it('stores one comment per Note, counted on the post, edited and listed by its author only', async () => {
      const { remote, posts, comments, post, actor } = await setup();
      const input = { post_id: post.id, parent_id: null, actor_url: actor, object_id: `${actor}/notes/1`, content: 'hi', created_at: at };
      const id = await remote.addComment(input);
      expect(id).toEqual(expect.any(Number));
      expect(await remote.addComment({ ...input, content: 'again' })).toBeNull();
      expect((await counts(posts, post.id)).comments).toBe(1);
      expect(await comments.findById(id!)).toMatchObject({ id, post_id: post.id, user_id: 0, remote_actor_url: actor, content: 'hi' });
      expect(await remote.findComment(input.object_id)).toEqual({ id, post_id: post.id, actor_url: actor });
      expect(await remote.findComment(`${actor}/notes/unknown`)).toBeNull();
      expect(await remote.editComment(input.object_id, 'https://other.example/u', 'forged', at)).toBe(false);
      expect(await remote.editComment(input.object_id, actor, 'edited', '2026-11-27 11:00:00')).toBe(true);
      expect(await comments.findById(id!)).toMatchObject({ content: 'edited', updated_at: '2026-11-27 11:00:00' });
      const reply = await remote.addComment({ ...input, parent_id: id!, object_id: `${actor}/notes/2` });
      expect(await remote.commentsOf(actor)).toEqual([id, reply]);
      expect(await remote.commentsOf('https://nobody.example/u')).toEqual([]);
    });

    it('counts one reaction per actor and post, replaced by a later one; undone only by its actor', async () => {
      const { remote, posts, post, actor } = await setup();
      expect(await remote.react(post.id, actor, `${actor}/likes/1`, 'like', at)).toBe('added');
      expect(await remote.react(post.id, actor, `${actor}/likes/1`, 'like', at)).toBe('unchanged');
      expect(await remote.react(post.id, actor, `${actor}/likes/2`, 'love', at)).toBe('changed');
      expect((await counts(posts, post.id)).likes).toBe(1);
      expect(await remote.unreact(`${actor}/likes/2`, 'https://forger.example/u')).toBe(false);
      expect(await remote.unreact(`${actor}/likes/1`, actor)).toBe(false);
      expect(await remote.unreact(`${actor}/likes/2`, actor)).toBe(true);
      expect(await remote.unreact(`${actor}/likes/2`, actor)).toBe(false);
      expect((await counts(posts, post.id)).likes).toBe(0);
    });

    it('counts one reaction per actor and comment on the comment, listed, replaced, undone only by its actor', async () => {
      const { remote, comments, user, post, actor } = await setup();
      const comment = await comments.create({ post_id: post.id, user_id: user.id, parent_id: null, content: 'c', created_at: at });
      expect(await remote.reactToComment(comment.id, actor, `${actor}/likes/c1`, 'like', at)).toBe('added');
      expect(await remote.reactToComment(comment.id, actor, `${actor}/likes/c1`, 'like', at)).toBe('unchanged');
      expect(await remote.reactToComment(comment.id, actor, `${actor}/likes/c2`, 'haha', '2026-11-27 10:05:00')).toBe('changed');
      expect((await comments.findById(comment.id))?.reactions_count).toBe(1);
      expect(await remote.commentReactions(comment.id)).toEqual([
        { actor_url: actor, reaction_type: 'haha', created_at: '2026-11-27 10:05:00' },
      ]);
      expect(await remote.unreact(`${actor}/likes/c2`, 'https://forger.example/u')).toBe(false);
      expect(await remote.unreact(`${actor}/likes/c2`, actor)).toBe(true);
      expect(await remote.unreact(`${actor}/likes/c2`, actor)).toBe(false);
      expect((await comments.findById(comment.id))?.reactions_count).toBe(0);
      expect(await remote.commentReactions(comment.id)).toEqual([]);
      // Forgetting the actor takes its comment reactions off too.
      await remote.reactToComment(comment.id, actor, `${actor}/likes/c3`, 'like', at);
      await remote.forgetActor(actor);
      expect((await comments.findById(comment.id))?.reactions_count).toBe(0);
    });

    it("names a thread's remote participants once each, earliest first", async () => {
      const { remote, post, actor } = await setup();
      const other = `${actor}-other`;
      const reply = (actorUrl: string, n: number) => ({
        post_id: post.id,
        parent_id: null,
        actor_url: actorUrl,
        object_id: `${actorUrl}/notes/p${n}`,
        content: 'x',
        created_at: at,
      });
      expect(await remote.participants(post.id, 10)).toEqual([]);
      await remote.addComment(reply(actor, 1));
      await remote.addComment(reply(other, 2));
      await remote.addComment(reply(actor, 3));
      expect(await remote.participants(post.id, 10)).toEqual([actor, other]);
      expect(await remote.participants(post.id, 1)).toEqual([actor]);
    });

    it('counts one boost per actor and post; undone only by its actor', async () => {
      const { remote, posts, post, actor } = await setup();
      expect(await remote.share(post.id, actor, `${actor}/boosts/1`, at)).toBe(true);
      expect(await remote.share(post.id, actor, `${actor}/boosts/2`, at)).toBe(false);
      expect((await counts(posts, post.id)).shares).toBe(1);
      expect(await remote.unshare(`${actor}/boosts/1`, 'https://forger.example/u')).toBe(false);
      expect(await remote.unshare(`${actor}/boosts/1`, actor)).toBe(true);
      expect((await counts(posts, post.id)).shares).toBe(0);
    });

    it('tells a follower of a user; forgetting the actor drops its reactions, boosts, follows and document', async () => {
      const { remote, follows, actors, posts, user, post, actor } = await setup();
      expect(await remote.isFollower(user.id, actor)).toBe(false);
      await follows.addFollower({ user_id: user.id, actor_url: actor, follow_id: `${actor}/follows/1`, followed_at: at });
      expect(await remote.isFollower(user.id, actor)).toBe(true);
      await remote.react(post.id, actor, `${actor}/likes/9`, 'like', at);
      await remote.share(post.id, actor, `${actor}/boosts/9`, at);
      await remote.forgetActor(actor);
      expect(await counts(posts, post.id)).toEqual({ likes: 0, comments: 0, shares: 0 });
      expect(await remote.isFollower(user.id, actor)).toBe(false);
      expect(await actors.find(actor)).toBeNull();
    });
  });
}
