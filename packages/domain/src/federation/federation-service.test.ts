import { describe, expect, it } from 'vitest';
import { InMemoryUserRepository } from '../accounts/testing/in-memory-accounts.js';
import { aNewUser } from '../accounts/testing/mothers.js';
import type { UserRecord } from '../accounts/user.js';
import type { PostRecord } from '../content/model.js';
import { ManualClock } from '../shared/clock.js';
import { Invalid } from '../shared/errors.js';
import type { UnitOfWork } from '../shared/unit-of-work.js';
import type { RemoteActor } from './model.js';
import type { FederationOutbox, OutboundComment, RemoteDirectory } from './ports.js';
import { FederationPostListener, FederationService } from './federation-service.js';
import { federationAudienceOf } from './rules.js';
import {
  aRemoteActor,
  InMemoryRemoteActorRepository,
  InMemoryRemoteFollowRepository,
  InMemoryRemotePostRepository,
} from './testing/index.js';

class RecordingOutbox implements FederationOutbox {
  readonly calls: string[] = [];
  private n = 0;
  newActivityId() {
    return `https://plaza.example/fediverse/activities/${++this.n}`;
  }
  async follow(user: UserRecord, remote: RemoteActor, followId: string) {
    this.calls.push(`follow ${user.username} ${remote.actor_url} ${followId}`);
  }
  async unfollow(user: UserRecord, remote: RemoteActor, followId: string) {
    this.calls.push(`undo ${user.username} ${remote.actor_url} ${followId}`);
  }
  async accept(user: UserRecord, remote: RemoteActor, followId: string) {
    this.calls.push(`accept ${user.username} ${remote.actor_url} ${followId}`);
  }
  async post(kind: string, post: PostRecord, author: UserRecord, audience: string) {
    this.calls.push(`${kind} ${post.id} ${author.username} ${audience}`);
  }
  async comment(kind: string, c: OutboundComment) {
    this.calls.push(`${kind} comment ${c.comment.id} ${c.author.username} ${c.audience}`);
  }
}

const uow: UnitOfWork = { run: (work) => work(), afterCommit: (effect) => effect() } as UnitOfWork;

function world() {
  const users = new InMemoryUserRepository();
  const actors = new InMemoryRemoteActorRepository();
  const follows = new InMemoryRemoteFollowRepository(actors);
  const posts = new InMemoryRemotePostRepository(follows);
  const outbox = new RecordingOutbox();
  const known = new Map<string, RemoteActor>([[aRemoteActor(1).actor_url, aRemoteActor(1)]]);
  const directory: RemoteDirectory = { resolve: async (q) => known.get(q) ?? null, recentPosts: async () => [] };
  const service = new FederationService(users, actors, follows, posts, directory, outbox, new ManualClock('2026-03-01T00:00:00Z'), uow);
  return { users, actors, follows, outbox, service, listener: new FederationPostListener(users, follows, outbox) };
}

const aPostOf = (user: UserRecord, id = 7): PostRecord => ({
  id,
  user_id: user.id,
  content: 'hi',
  media: [],
  media_type: null,
  tags: [],
  created_at: '2026-03-01 00:00:00',
  updated_at: null,
  likes_count: 0,
  comments_count: 0,
  shares_count: 0,
});
const actorOf = (u: UserRecord) => ({ userId: u.id, username: u.username, isAdmin: false, isModerator: false, isTechnician: false });

describe('what federates (docs/decisions/0050)', () => {
  it('public accounts to the public, private ones to followers, any other audience nowhere', () => {
    expect(federationAudienceOf({ kind: 'account', authorId: 1, isPrivate: false })).toBe('public');
    expect(federationAudienceOf({ kind: 'account', authorId: 1, isPrivate: true })).toBe('followers');
    expect(federationAudienceOf({ kind: 'group' })).toBeNull();
    expect(federationAudienceOf({ kind: 'page' })).toBeNull();
    expect(federationAudienceOf({ kind: 'message' })).toBeNull();
  });

  it('the post listener queues Create, Update and Delete with that audience, only for accounts with remote followers', async () => {
    const { users, follows, outbox, listener } = world();
    const pub = await users.create(aNewUser());
    const priv = await users.create(aNewUser());
    const lonely = await users.create(aNewUser());
    await users.setPrivacy(priv.id, { is_private: true });
    for (const u of [pub, priv])
      await follows.addFollower({
        user_id: u.id,
        actor_url: aRemoteActor(1).actor_url,
        follow_id: 'f',
        followed_at: '2026-03-01 00:00:00',
      });
    await listener.published(aPostOf(pub, 1));
    await listener.edited(aPostOf(pub, 1));
    await listener.removed(aPostOf(pub, 1));
    await listener.published(aPostOf(priv, 2));
    await listener.published(aPostOf(lonely, 3));
    expect(outbox.calls).toEqual([
      `create 1 ${pub.username} public`,
      `update 1 ${pub.username} public`,
      `delete 1 ${pub.username} public`,
      `create 2 ${priv.username} followers`,
    ]);
  });
});

describe('FederationService', () => {
  it('follows a remote account once, and undoes it once', async () => {
    const { users, outbox, service } = world();
    const me = await users.create(aNewUser());
    const url = aRemoteActor(1).actor_url;
    expect((await service.followRemote(actorOf(me), { actor_url: url })).created).toBe(true);
    expect((await service.followRemote(actorOf(me), { actor_url: url })).created).toBe(false);
    expect((await service.unfollowRemote(actorOf(me), { actor_url: url })).removed).toBe(true);
    expect((await service.unfollowRemote(actorOf(me), { actor_url: url })).removed).toBe(false);
    expect(outbox.calls).toEqual([
      `follow ${me.username} ${url} https://plaza.example/fediverse/activities/1`,
      `undo ${me.username} ${url} https://plaza.example/fediverse/activities/1`,
    ]);
    await expect(service.followRemote(actorOf(me), { actor_url: 'https://nowhere.example/x' })).rejects.toMatchObject({
      code: 'remote_actor_not_found',
    });
    await expect(service.followRemote(actorOf(me), {})).rejects.toBeInstanceOf(Invalid);
  });

  it('stores an inbound follower and queues the Accept; keeps notes only of followed actors', async () => {
    const { users, outbox, service, follows } = world();
    const me = await users.create(aNewUser());
    expect(await service.remoteFollowed('nobody_here', aRemoteActor(1), 'f1')).toBeNull();
    expect((await service.remoteFollowed(me.username.toUpperCase(), aRemoteActor(1), 'f1'))?.id).toBe(me.id);
    expect(await follows.countFollowers(me.id)).toBe(1);
    expect(outbox.calls).toEqual([`accept ${me.username} ${aRemoteActor(1).actor_url} f1`]);
    const note = {
      object_id: 'https://remote1.example/n/1',
      actor_url: aRemoteActor(1).actor_url,
      url: 'https://remote1.example/n/1',
      content: 'x',
      media_url: null,
      media_type: null,
      published_at: '2026-03-01 00:00:00',
    };
    expect(await service.noteReceived(note)).toBe(false);
    await service.followRemote(actorOf(me), { actor_url: aRemoteActor(1).actor_url });
    expect(await service.noteReceived(note)).toBe(true);
    expect(await service.remoteUnfollowed(me.username, aRemoteActor(1).actor_url)).toBe(true);
  });
});
