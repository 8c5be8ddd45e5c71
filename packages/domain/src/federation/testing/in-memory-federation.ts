import { offsetOf, type PageRequest } from '../../shared/pagination.js';
import type { Timestamp } from '../../shared/time.js';
import { type DomainBlock, type DomainBlockRepository, domainCovers, hostOf } from '../domain-blocks.js';
import type {
  ActorKeyPair,
  NewQueuedMessage,
  QueueEntry,
  QueuedMessage,
  QueueState,
  RemoteActor,
  RemoteFollower,
  RemoteFollowing,
  RemotePost,
  RemotePostInput,
} from '../model.js';
import type {
  ActorKeyRepository,
  Counted,
  FederationKeyValues,
  FederationQueue,
  RemoteActorRepository,
  RemoteFollowRepository,
  RemotePostRepository,
} from '../ports.js';

const clone = <T>(v: T): T => structuredClone(v);
function paged<T>(rows: T[], page: PageRequest): Counted<T> {
  const start = offsetOf(page);
  return { total: rows.length, items: rows.slice(start, start + page.perPage).map(clone) };
}

export class InMemoryActorKeyRepository implements ActorKeyRepository {
  private readonly rows = new Map<number, ActorKeyPair>();
  async find(userId: number) {
    const row = this.rows.get(userId);
    return row ? clone(row) : null;
  }
  async insertIfAbsent(pair: ActorKeyPair) {
    if (!this.rows.has(pair.user_id)) this.rows.set(pair.user_id, clone(pair));
    return clone(this.rows.get(pair.user_id)!);
  }
}

export class InMemoryRemoteActorRepository implements RemoteActorRepository {
  private readonly rows = new Map<string, RemoteActor>();
  /** Drops the cached document (Delete(Person), in-memory-remote-interactions.ts). */
  forget(actorUrl: string): void {
    this.rows.delete(actorUrl);
  }
  async upsert(actor: RemoteActor) {
    this.rows.set(actor.actor_url, clone(actor));
  }
  async find(actorUrl: string) {
    const row = this.rows.get(actorUrl);
    return row ? clone(row) : null;
  }
  async findMany(actorUrls: string[]) {
    const out = new Map<string, RemoteActor>();
    for (const url of actorUrls) {
      const row = this.rows.get(url);
      if (row) out.set(url, clone(row));
    }
    return out;
  }
  /** The known actors whose host is the domain or one of its subdomains. */
  onDomain(domain: string): Set<string> {
    return new Set([...this.rows.values()].filter((a) => domainCovers(domain, hostOf(a.domain) ?? '')).map((a) => a.actor_url));
  }
}

/** Newest first: by date, then by insertion order. */
const newest = <T extends { followed_at: Timestamp }>(rows: (T & { seq: number })[]) =>
  [...rows].sort((a, b) => (a.followed_at === b.followed_at ? b.seq - a.seq : a.followed_at < b.followed_at ? 1 : -1));

export class InMemoryRemoteFollowRepository implements RemoteFollowRepository {
  private seq = 0;
  private readonly followerRows: (RemoteFollower & { seq: number })[] = [];
  private readonly followingRows: (RemoteFollowing & { seq: number })[] = [];
  constructor(private readonly actors: InMemoryRemoteActorRepository) {}

  /** Drops every follow of the actor, both ways (Delete(Person)). */
  forget(actorUrl: string): void {
    for (const rows of [this.followerRows, this.followingRows] as { actor_url: string }[][])
      for (let i = rows.length - 1; i >= 0; i--) if (rows[i].actor_url === actorUrl) rows.splice(i, 1);
  }

  async addFollower(follower: RemoteFollower) {
    const existing = this.followerRows.find((r) => r.user_id === follower.user_id && r.actor_url === follower.actor_url);
    if (existing) {
      existing.follow_id = follower.follow_id;
      return false;
    }
    this.followerRows.push({ ...clone(follower), seq: ++this.seq });
    return true;
  }
  async removeFollower(userId: number, actorUrl: string) {
    const i = this.followerRows.findIndex((r) => r.user_id === userId && r.actor_url === actorUrl);
    if (i < 0) return false;
    this.followerRows.splice(i, 1);
    return true;
  }
  async removeFollowerByFollowId(actorUrl: string, followId: string) {
    const i = this.followerRows.findIndex((r) => r.actor_url === actorUrl && r.follow_id === followId);
    if (i < 0) return false;
    this.followerRows.splice(i, 1);
    return true;
  }
  async followers(userId: number, page: PageRequest) {
    return paged(
      newest(this.followerRows.filter((r) => r.user_id === userId)).map(({ seq: _s, ...r }) => r),
      page,
    );
  }
  async countFollowers(userId: number) {
    return this.followerRows.filter((r) => r.user_id === userId).length;
  }
  async hasFollowers(userId: number) {
    return this.followerRows.some((r) => r.user_id === userId);
  }
  async followerInboxes(userId: number) {
    const actors = await this.actors.findMany(this.followerRows.filter((r) => r.user_id === userId).map((r) => r.actor_url));
    return [...new Set([...actors.values()].map((a) => a.shared_inbox_url ?? a.inbox_url))].sort();
  }
  async addFollowing(following: RemoteFollowing) {
    if (this.followingRows.some((r) => r.user_id === following.user_id && r.actor_url === following.actor_url)) return false;
    this.followingRows.push({ ...clone(following), seq: ++this.seq });
    return true;
  }
  async acceptFollowing(actorUrl: string, followId: string) {
    const row = this.followingRows.find((r) => r.actor_url === actorUrl && r.follow_id === followId);
    if (!row) return false;
    row.accepted = true;
    return true;
  }
  async removeFollowing(userId: number, actorUrl: string) {
    const i = this.followingRows.findIndex((r) => r.user_id === userId && r.actor_url === actorUrl);
    if (i < 0) return null;
    const [{ seq: _s, ...row }] = this.followingRows.splice(i, 1);
    return row;
  }
  async findFollowing(userId: number, actorUrl: string) {
    const row = this.followingRows.find((r) => r.user_id === userId && r.actor_url === actorUrl);
    if (!row) return null;
    const { seq: _s, ...rest } = row;
    return clone(rest);
  }
  async following(userId: number, page: PageRequest) {
    return paged(
      newest(this.followingRows.filter((r) => r.user_id === userId)).map(({ seq: _s, ...r }) => r),
      page,
    );
  }
  async countFollowing(userId: number) {
    return this.followingRows.filter((r) => r.user_id === userId).length;
  }
  async counts(userId: number) {
    return { followers: await this.countFollowers(userId), following: await this.countFollowing(userId) };
  }
  async followingAmong(userId: number, actorUrls: string[]) {
    return new Set(this.followingRows.filter((r) => r.user_id === userId && actorUrls.includes(r.actor_url)).map((r) => r.actor_url));
  }
  async isFollowedLocally(actorUrl: string) {
    return this.followingRows.some((r) => r.actor_url === actorUrl);
  }
  async removeAllOfDomain(domain: string) {
    const actors = this.actors.onDomain(domain);
    let n = 0;
    for (const rows of [this.followerRows, this.followingRows] as { actor_url: string }[][]) {
      for (let i = rows.length - 1; i >= 0; i--) {
        if (actors.has(rows[i].actor_url)) {
          rows.splice(i, 1);
          n += 1;
        }
      }
    }
    return n;
  }
  /** The known actors on a domain (for the posts' fake). */
  actorsOnDomain(domain: string): Set<string> {
    return this.actors.onDomain(domain);
  }
  /** For the feed: the actors a user follows. */
  followedBy(userId: number): Set<string> {
    return new Set(this.followingRows.filter((r) => r.user_id === userId).map((r) => r.actor_url));
  }
}

export class InMemoryRemotePostRepository implements RemotePostRepository {
  private nextId = 1;
  private readonly rows: RemotePost[] = [];
  constructor(private readonly follows: InMemoryRemoteFollowRepository) {}

  /** Drops the actor's stored notes (Delete(Person)). */
  forget(actorUrl: string): void {
    for (let i = this.rows.length - 1; i >= 0; i--) if (this.rows[i].actor_url === actorUrl) this.rows.splice(i, 1);
  }

  async upsert(post: RemotePostInput, at: Timestamp) {
    const existing = this.rows.find((r) => r.object_id === post.object_id);
    if (existing) {
      if (existing.actor_url !== post.actor_url) return null;
      Object.assign(existing, {
        url: post.url,
        content: post.content,
        media_url: post.media_url,
        media_type: post.media_type,
        updated_at: at,
      });
      return 'updated' as const;
    }
    this.rows.push({ ...clone(post), id: this.nextId++, created_at: at, updated_at: null });
    return 'inserted' as const;
  }
  async delete(objectId: string, actorUrl: string) {
    const i = this.rows.findIndex((r) => r.object_id === objectId && r.actor_url === actorUrl);
    if (i < 0) return false;
    this.rows.splice(i, 1);
    return true;
  }
  private sorted(rows: RemotePost[]) {
    return [...rows].sort((a, b) => (a.published_at === b.published_at ? b.id - a.id : a.published_at < b.published_at ? 1 : -1));
  }
  async feed(userId: number, page: PageRequest) {
    const followed = this.follows.followedBy(userId);
    return paged(this.sorted(this.rows.filter((r) => followed.has(r.actor_url))), page);
  }
  async ofActor(actorUrl: string, limit: number) {
    return this.sorted(this.rows.filter((r) => r.actor_url === actorUrl))
      .slice(0, limit)
      .map(clone);
  }
  async deleteOfDomain(domain: string) {
    const actors = this.follows.actorsOnDomain(domain);
    const before = this.rows.length;
    for (let i = this.rows.length - 1; i >= 0; i--) if (actors.has(this.rows[i].actor_url)) this.rows.splice(i, 1);
    return before - this.rows.length;
  }
}

export class InMemoryFederationKeyValues implements FederationKeyValues {
  private readonly rows = new Map<string, { value: string; expiresAt: Timestamp | null }>();
  async get(key: string, now: Timestamp) {
    const row = this.rows.get(key);
    if (!row || (row.expiresAt !== null && row.expiresAt <= now)) return undefined;
    return JSON.parse(row.value) as unknown;
  }
  async set(key: string, value: unknown, expiresAt: Timestamp | null) {
    this.rows.set(key, { value: JSON.stringify(value), expiresAt });
  }
  async delete(key: string) {
    this.rows.delete(key);
  }
  async purgeExpired(now: Timestamp) {
    let n = 0;
    for (const [k, row] of this.rows) {
      if (row.expiresAt !== null && row.expiresAt <= now) {
        this.rows.delete(k);
        n += 1;
      }
    }
    return n;
  }
}

export class InMemoryFederationQueue implements FederationQueue {
  private nextId = 1;
  private readonly rows: QueueEntry[] = [];
  async enqueue(messages: NewQueuedMessage[]) {
    for (const m of messages) {
      this.rows.push({
        id: this.nextId++,
        channel: m.channel,
        payload: JSON.parse(JSON.stringify(m.payload)),
        attempts: 0,
        due_at: m.due_at,
        leased_until: null,
        last_error: null,
        dead_at: null,
      });
    }
  }
  async claim(now: Timestamp, limit: number, leaseUntil: Timestamp) {
    const due = this.rows
      .filter((r) => r.dead_at === null && r.due_at <= now && (r.leased_until === null || r.leased_until <= now))
      .sort((a, b) => (a.due_at === b.due_at ? a.id - b.id : a.due_at < b.due_at ? -1 : 1))
      .slice(0, limit);
    for (const r of due) r.leased_until = leaseUntil;
    return due.map(({ leased_until: _l, last_error: _e, dead_at: _d, ...m }): QueuedMessage => clone(m));
  }
  async complete(id: number) {
    const i = this.rows.findIndex((r) => r.id === id);
    if (i >= 0) this.rows.splice(i, 1);
  }
  async find(id: number) {
    const row = this.rows.find((r) => r.id === id && r.dead_at === null);
    if (!row) return null;
    const { leased_until: _l, last_error: _e, dead_at: _d, ...m } = row;
    return clone(m) as QueuedMessage;
  }
  async reschedule(id: number, attempts: number, dueAt: Timestamp, error: string) {
    const row = this.rows.find((r) => r.id === id);
    if (row) Object.assign(row, { attempts, due_at: dueAt, leased_until: null, last_error: error });
  }
  async bury(id: number, attempts: number, error: string, at: Timestamp) {
    const row = this.rows.find((r) => r.id === id);
    if (row) Object.assign(row, { attempts, leased_until: null, last_error: error.slice(0, 1000), dead_at: at });
  }
  async pending(channel?: string) {
    return this.rows.filter((r) => r.dead_at === null && (channel === undefined || r.channel === channel)).length;
  }
  async list(state: QueueState, channels: string[], page: PageRequest) {
    const inState = (r: QueueEntry) =>
      state === 'dead' ? r.dead_at !== null : r.dead_at === null && (state === 'pending' ? r.attempts === 0 : r.attempts > 0);
    const rows = this.rows
      .filter((r) => channels.includes(r.channel) && inState(r))
      .sort((a, b) => (a.due_at === b.due_at ? a.id - b.id : a.due_at < b.due_at ? -1 : 1));
    return paged(rows, page);
  }
  private free(now: Timestamp) {
    return (r: QueueEntry) => r.leased_until === null || r.leased_until <= now;
  }
  async retry(id: number, now: Timestamp) {
    const row = this.rows.find((r) => r.id === id && (r.dead_at !== null || r.attempts > 0) && this.free(now)(r));
    if (!row) return false;
    Object.assign(row, { due_at: now, dead_at: null, leased_until: null });
    return true;
  }
  async discard(id: number, now: Timestamp) {
    const i = this.rows.findIndex((r) => r.id === id && this.free(now)(r));
    if (i < 0) return false;
    this.rows.splice(i, 1);
    return true;
  }
}

export class InMemoryDomainBlockRepository implements DomainBlockRepository {
  private readonly rows = new Map<string, DomainBlock>();
  async add(block: DomainBlock) {
    if (this.rows.has(block.domain)) return false;
    this.rows.set(block.domain, clone(block));
    return true;
  }
  async remove(domain: string) {
    const row = this.rows.get(domain);
    if (!row) return null;
    this.rows.delete(domain);
    return clone(row);
  }
  async all() {
    return [...this.rows.values()].sort((a, b) => (a.domain < b.domain ? -1 : 1)).map(clone);
  }
}
