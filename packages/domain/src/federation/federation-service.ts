import type { UserRepository } from '../accounts/ports.js';
import type { UserRecord } from '../accounts/user.js';
import type { PostRecord } from '../content/model.js';
import type { PostEventListener } from '../content/post-events.js';
import type { Actor } from '../shared/actor.js';
import type { Clock } from '../shared/clock.js';
import { Forbidden, Invalid, NotFound } from '../shared/errors.js';
import type { PageRequest } from '../shared/pagination.js';
import { toTimestamp } from '../shared/time.js';
import type { UnitOfWork } from '../shared/unit-of-work.js';
import type { RemoteActor, RemoteFollower, RemoteFollowing, RemotePost, RemotePostInput } from './model.js';
import type {
  Counted,
  FederationOutbox,
  RemoteActorRepository,
  RemoteDirectory,
  RemoteFollowRepository,
  RemotePostRepository,
} from './ports.js';
import { federationAudienceOf } from './rules.js';
import { remoteMentionsOf } from './mentions.js';
import type { DomainBlock, DomainPolicy } from './domain-blocks.js';
import type { RemoteFollowApproval } from './follow-approval.js';

export interface FederationProfile {
  user: UserRecord;
  followers_count: number;
  following_count: number;
}

export interface RemoteAccountView {
  actor: RemoteActor;
  is_following: boolean;
}

export interface FollowerView {
  follower: RemoteFollower;
  actor: RemoteActor | null;
}

export interface FollowingView {
  following: RemoteFollowing;
  actor: RemoteActor | null;
}

export interface FeedPostView {
  post: RemotePost;
  actor: RemoteActor | null;
}

/** One of `handle` and `actor_url`, as fediverse.php's follow and unfollow take them. */
export interface RemoteTarget {
  handle?: string;
  actor_url?: string;
}

/** How many followed outboxes a feed refresh pulls, and how many notes of each. */
const REFRESH_ACTORS = 20;
const REFRESH_POSTS = 20;

/**
 * fediverse.php's use cases, and what the inbox listeners do with verified activities. Remote
 * accounts are reached through `RemoteDirectory` (the SSRF-guarded network side); what leaves is
 * queued through `FederationOutbox` in the same unit of work as the rows it goes with.
 */
export class FederationService {
  constructor(
    private readonly users: UserRepository,
    private readonly actors: RemoteActorRepository,
    private readonly follows: RemoteFollowRepository,
    private readonly posts: RemotePostRepository,
    private readonly directory: RemoteDirectory,
    private readonly outbox: FederationOutbox,
    private readonly clock: Clock,
    private readonly uow: UnitOfWork,
    /** Domain blocks (docs/decisions/0106); none without it. */
    private readonly policy?: DomainPolicy,
    /** Follow approval of private accounts (docs/decisions/0210); without it every Follow is accepted. */
    private readonly approval?: RemoteFollowApproval,
  ) {}

  private blockOf(urlOrHost: string): Promise<DomainBlock | null> {
    return this.policy ? this.policy.blockOf(urlOrHost) : Promise.resolve(null);
  }

  private async suspended(urlOrHost: string): Promise<boolean> {
    return (await this.blockOf(urlOrHost))?.severity === 'suspend';
  }

  private async refuseSuspended(urlOrHost: string): Promise<void> {
    if (await this.suspended(urlOrHost))
      throw new Forbidden('This server is blocked by the administrators of this instance', 'domain_blocked');
  }

  private async liveUser(id: number): Promise<UserRecord> {
    const user = await this.users.findById(id);
    if (!user || user.deleted_at) throw new NotFound('User not found', 'user_not_found');
    return user;
  }

  /** A local account by its username (actor documents, WebFinger, inboxes); null when none or deleted. */
  async localUser(username: string): Promise<UserRecord | null> {
    if (!/^[\w.-]{1,64}$/.test(username)) return null;
    const user = await this.users.findByLogin(username);
    return user && !user.deleted_at && user.username.toLowerCase() === username.toLowerCase() ? user : null;
  }

  async profile(_actor: Actor, userId: number): Promise<FederationProfile> {
    const user = await this.liveUser(userId);
    const { followers, following } = await this.follows.counts(user.id);
    return { user, followers_count: followers, following_count: following };
  }

  /** users.php's `fediverse_*` counts. */
  async counts(userId: number): Promise<{ followers: number; following: number }> {
    return this.follows.counts(userId);
  }

  async followers(_actor: Actor, userId: number, page: PageRequest): Promise<Counted<FollowerView>> {
    await this.liveUser(userId);
    const list = await this.follows.followers(userId, page);
    const actors = await this.actors.findMany(list.items.map((f) => f.actor_url));
    return { total: list.total, items: list.items.map((follower) => ({ follower, actor: actors.get(follower.actor_url) ?? null })) };
  }

  async following(_actor: Actor, userId: number, page: PageRequest): Promise<Counted<FollowingView>> {
    await this.liveUser(userId);
    const list = await this.follows.following(userId, page);
    const actors = await this.actors.findMany(list.items.map((f) => f.actor_url));
    return { total: list.total, items: list.items.map((following) => ({ following, actor: actors.get(following.actor_url) ?? null })) };
  }

  /** The stored notes of the accounts the caller follows; `refresh` pulls their outboxes first. */
  async feed(actor: Actor, page: PageRequest, refresh: boolean): Promise<Counted<FeedPostView> & { synced: number }> {
    let synced = 0;
    if (refresh) {
      const followed = await this.follows.following(actor.userId, { page: 1, perPage: REFRESH_ACTORS });
      const known = [...(await this.actors.findMany(followed.items.map((f) => f.actor_url))).values()];
      // A suspended server is not asked (a follow may have slipped in on another instance within the cache's TTL).
      const reachable = await Promise.all(known.map(async (remote) => !(await this.suspended(remote.actor_url))));
      const actors = known.filter((_, i) => reachable[i]);
      // The outboxes are read at once (each bounded by the client's timeout); one unreachable server does not fail the feed.
      const pulled = await Promise.allSettled(actors.map((remote) => this.directory.recentPosts(remote, REFRESH_POSTS)));
      for (const [i, result] of pulled.entries()) {
        if (result.status !== 'fulfilled') continue;
        for (const note of result.value) {
          if (note.actor_url !== actors[i].actor_url) continue;
          if ((await this.posts.upsert(note, toTimestamp(this.clock.now()))) === 'inserted') synced += 1;
        }
      }
    }
    const list = await this.posts.feed(actor.userId, page);
    const actors = await this.actors.findMany([...new Set(list.items.map((p) => p.actor_url))]);
    return { synced, total: list.total, items: list.items.map((post) => ({ post, actor: actors.get(post.actor_url) ?? null })) };
  }

  /** Resolves a handle or an actor URL and caches the actor; NotFound when nothing answers. */
  async lookup(actor: Actor, q: string): Promise<RemoteAccountView> {
    const remote = await this.resolve(q);
    const following = await this.follows.followingAmong(actor.userId, [remote.actor_url]);
    return { actor: remote, is_following: following.has(remote.actor_url) };
  }

  async remoteProfile(actor: Actor, q: string, postsLimit: number): Promise<RemoteAccountView & { recent_posts: RemotePostInput[] }> {
    const view = await this.lookup(actor, q);
    let recent: RemotePostInput[] = [];
    // A silenced server's notes are shown to the accounts that follow their author only.
    const silenced = (await this.blockOf(view.actor.actor_url))?.severity === 'silence';
    if (postsLimit > 0 && (!silenced || view.is_following)) {
      try {
        recent = await this.directory.recentPosts(view.actor, postsLimit);
      } catch {
        recent = (await this.posts.ofActor(view.actor.actor_url, postsLimit)).map(({ id: _id, created_at: _c, updated_at: _u, ...p }) => p);
      }
    }
    return { ...view, recent_posts: recent };
  }

  async followRemote(actor: Actor, target: RemoteTarget): Promise<{ remote: RemoteActor; created: boolean }> {
    const remote = await this.resolve(this.targetOf(target));
    const user = await this.liveUser(actor.userId);
    // The row first, one conditional insert: of concurrent follows only the one that stored it queues a Follow.
    const created = await this.uow.run(async () => {
      const followId = this.outbox.newActivityId();
      const stored = await this.follows.addFollowing({
        user_id: user.id,
        actor_url: remote.actor_url,
        follow_id: followId,
        accepted: false,
        followed_at: toTimestamp(this.clock.now()),
      });
      if (stored) await this.outbox.follow(user, remote, followId);
      return stored;
    });
    return { remote, created };
  }

  async unfollowRemote(actor: Actor, target: RemoteTarget): Promise<{ remote: RemoteActor | null; removed: boolean }> {
    const q = this.targetOf(target);
    const user = await this.liveUser(actor.userId);
    // A stored follow is undone without the network: the actor URL may be known already.
    let remote = /^https?:\/\//i.test(q) ? await this.actors.find(q) : null;
    remote ??= await this.resolve(q);
    const known = remote;
    const removed = await this.uow.run(async () => {
      const gone = await this.follows.removeFollowing(user.id, known.actor_url);
      if (gone) await this.outbox.unfollow(user, known, gone.follow_id);
      return gone !== null;
    });
    return { remote, removed };
  }

  private targetOf(target: RemoteTarget): string {
    const q = (target.actor_url ?? target.handle ?? '').trim();
    if (!q) throw Invalid.field('actor_url', 'send actor_url or handle', 'missing_target');
    return q;
  }

  private async resolve(q: string): Promise<RemoteActor> {
    // A suspended server is not asked (its host is in the URL, or after the last @ of a handle), nor
    // is an answer from one kept (WebFinger may name an actor on another host).
    const named = /^https?:\/\//i.test(q.trim()) ? q.trim() : q.trim().slice(q.trim().lastIndexOf('@') + 1);
    await this.refuseSuspended(named);
    const remote = await this.directory.resolve(q.trim());
    if (!remote) throw new NotFound('No fediverse account answers at this address', 'remote_actor_not_found');
    await this.refuseSuspended(remote.actor_url);
    await this.actors.upsert(remote);
    return remote;
  }

  // ---- inbound (called by the inbox listeners with verified activities) ----

  /**
   * Follow of a local user: stores the follower and queues Accept(Follow); a private account's is a
   * pending request instead (docs/decisions/0210). Null when the user is unknown.
   */
  async remoteFollowed(username: string, remote: RemoteActor, followId: string): Promise<UserRecord | null> {
    const user = await this.localUser(username);
    if (!user || (await this.suspended(remote.actor_url))) return null;
    const approval = user.is_private ? this.approval : undefined;
    await this.uow.run(async () => {
      await this.actors.upsert(remote);
      if (approval) return approval.requested(user, remote, followId);
      await this.follows.addFollower({
        user_id: user.id,
        actor_url: remote.actor_url,
        follow_id: followId,
        followed_at: toTimestamp(this.clock.now()),
      });
      await this.outbox.accept(user, remote, followId);
    });
    return user;
  }

  async remoteUnfollowed(username: string, actorUrl: string): Promise<boolean> {
    const user = await this.localUser(username);
    if (!user) return false;
    // A pending request (docs/decisions/0210) is withdrawn the same way.
    const withdrawn = (await this.approval?.withdrawn(user.id, actorUrl)) ?? false;
    return (await this.follows.removeFollower(user.id, actorUrl)) || withdrawn;
  }

  /** Undo of a Follow named by its id alone. */
  async followUndone(actorUrl: string, followId: string): Promise<boolean> {
    const withdrawn = (await this.approval?.withdrawnById(actorUrl, followId)) ?? false;
    return (await this.follows.removeFollowerByFollowId(actorUrl, followId)) || withdrawn;
  }

  /** Accept of one of our Follows. */
  followAccepted(actorUrl: string, followId: string): Promise<boolean> {
    return this.follows.acceptFollowing(actorUrl, followId);
  }

  /** Create or Update of a Note: kept when a local user follows its author. */
  async noteReceived(note: RemotePostInput): Promise<boolean> {
    // An activity accepted before its server was suspended, handled after: nothing is stored.
    if (await this.suspended(note.actor_url)) return false;
    if (!(await this.follows.isFollowedLocally(note.actor_url))) return false;
    return (await this.posts.upsert(note, toTimestamp(this.clock.now()))) !== null;
  }

  noteDeleted(objectId: string, actorUrl: string): Promise<boolean> {
    return this.posts.delete(objectId, actorUrl);
  }
}

/**
 * Federation's post lifecycle listener: queues Create, Update and Delete of the author's wall posts
 * for the remote followers, by the rule of docs/decisions/0050. Runs inside the post's unit of work,
 * so a post and its queued activity are stored (or not) together.
 */
export class FederationPostListener implements PostEventListener {
  constructor(
    private readonly users: UserRepository,
    private readonly follows: RemoteFollowRepository,
    private readonly outbox: FederationOutbox,
  ) {}

  private async send(kind: 'create' | 'update' | 'delete', post: PostRecord): Promise<void> {
    // Most accounts have no remote follower: nothing to build or queue (one index entry read at most),
    // unless the post mentions a remote account, which it then reaches (a public post only: mentions.ts).
    const mentions = remoteMentionsOf(post.content).length > 0;
    if (!mentions && !(await this.follows.hasFollowers(post.user_id))) return;
    const author = await this.users.findById(post.user_id);
    if (!author || author.deleted_at) return;
    const audience = federationAudienceOf({ kind: 'account', authorId: author.id, isPrivate: author.is_private });
    if (!audience) return;
    if (audience !== 'public' && !(await this.follows.hasFollowers(post.user_id))) return;
    await this.outbox.post(kind, post, author, audience);
  }

  published(post: PostRecord): Promise<void> {
    return this.send('create', post);
  }

  edited(post: PostRecord): Promise<void> {
    return this.send('update', post);
  }

  removed(post: PostRecord): Promise<void> {
    return this.send('delete', post);
  }
}
