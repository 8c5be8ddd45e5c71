import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import { offsetOf, type PageRequest, type Timestamp } from '@plaza/domain';
import type {
  ActorKeyPair,
  ActorKeyRepository,
  Counted,
  FederationKeyValues,
  FederationQueue,
  NewQueuedMessage,
  QueueEntry,
  QueuedMessage,
  QueueState,
  RemoteActor,
  RemoteActorRepository,
  RemoteFollower,
  RemoteFollowing,
  RemoteFollowRepository,
  RemotePost,
  RemotePostInput,
  RemotePostRepository,
} from '@plaza/domain/federation';
import type { Database } from '../database.js';
import { insertIfAbsent, insertOrUpdate, type SqlDialect } from '../dialect.js';
import type { RemoteFollowingTable, RemotePostsTable } from './schema.js';
import { prepared } from '../prepared.js';
import { actorsOnDomain } from './sql-domain-blocks.js';

export class SqlActorKeyRepository implements ActorKeyRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async find(userId: number): Promise<ActorKeyPair | null> {
    return (await this.db.selectFrom('federation_keys').selectAll().where('user_id', '=', userId).executeTakeFirst()) ?? null;
  }

  async insertIfAbsent(pair: ActorKeyPair): Promise<ActorKeyPair> {
    await insertIfAbsent(this.db, 'federation_keys', { ...pair });
    const stored = await this.find(pair.user_id);
    if (!stored) throw new Error(`the key pair of user ${pair.user_id} was not stored`);
    return stored;
  }
}

export class SqlRemoteActorRepository implements RemoteActorRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: SqlDialect,
  ) {}

  async upsert(actor: RemoteActor): Promise<void> {
    const { actor_url: _key, ...rest } = actor;
    await insertOrUpdate(this.db, this.dialect, 'remote_actors', [{ ...actor }], ['actor_url'], rest);
  }

  async find(actorUrl: string): Promise<RemoteActor | null> {
    return (await this.db.selectFrom('remote_actors').selectAll().where('actor_url', '=', actorUrl).executeTakeFirst()) ?? null;
  }

  async findMany(actorUrls: string[]): Promise<Map<string, RemoteActor>> {
    if (actorUrls.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('remote_actors')
      .selectAll()
      .where('actor_url', 'in', [...new Set(actorUrls)])
      .execute();
    return new Map(rows.map((r) => [r.actor_url, r]));
  }
}

const following = (r: RemoteFollowingTable): RemoteFollowing => ({ ...r, accepted: r.accepted === 1 });

/**
 * A user's remote followers and the remote accounts they follow (pending included), as sub-selects to
 * name in a select: the federation profile's counts, and users.php's `fediverse_*_count` in the
 * profile read (SqlProfileStatsReader).
 */
export function remoteFollowCounts(db: Kysely<Database>, userId: number) {
  return {
    followers: db.selectFrom('remote_followers').select(db.fn.countAll<number>().as('n')).where('user_id', '=', userId),
    following: db.selectFrom('remote_following').select(db.fn.countAll<number>().as('n')).where('user_id', '=', userId),
  };
}

export class SqlRemoteFollowRepository implements RemoteFollowRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async addFollower(follower: RemoteFollower): Promise<boolean> {
    if (await insertIfAbsent(this.db, 'remote_followers', { ...follower })) return true;
    await this.db
      .updateTable('remote_followers')
      .set({ follow_id: follower.follow_id })
      .where('user_id', '=', follower.user_id)
      .where('actor_url', '=', follower.actor_url)
      .execute();
    return false;
  }

  async removeFollower(userId: number, actorUrl: string): Promise<boolean> {
    const r = await this.db
      .deleteFrom('remote_followers')
      .where('user_id', '=', userId)
      .where('actor_url', '=', actorUrl)
      .executeTakeFirst();
    return Number(r.numDeletedRows) > 0;
  }

  async removeFollowerByFollowId(actorUrl: string, followId: string): Promise<boolean> {
    const r = await this.db
      .deleteFrom('remote_followers')
      .where('actor_url', '=', actorUrl)
      .where('follow_id', '=', followId)
      .executeTakeFirst();
    return Number(r.numDeletedRows) > 0;
  }

  async followers(userId: number, page: PageRequest): Promise<Counted<RemoteFollower>> {
    const [items, total] = await Promise.all([
      this.db
        .selectFrom('remote_followers')
        .selectAll()
        .where('user_id', '=', userId)
        .orderBy('followed_at', 'desc')
        .orderBy('actor_url', 'desc')
        .limit(page.perPage)
        .offset(offsetOf(page))
        .execute(),
      this.countFollowers(userId),
    ]);
    return { items, total };
  }

  async countFollowers(userId: number): Promise<number> {
    const r = await this.db
      .selectFrom('remote_followers')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow();
    return Number(r.n);
  }

  // Asked with every new post (whether it federates at all): built once (prepared.ts). One index
  // entry read at most, where a count would read every follower's.
  private readonly anyFollowerQuery = prepared((userId: number) =>
    this.db.selectFrom('remote_followers').select('actor_url').where('user_id', '=', userId).limit(1),
  );

  async hasFollowers(userId: number): Promise<boolean> {
    return (await this.anyFollowerQuery(this.db, userId)).length > 0;
  }

  async followerInboxes(userId: number): Promise<string[]> {
    const rows = await this.db
      .selectFrom('remote_followers as f')
      .innerJoin('remote_actors as a', 'a.actor_url', 'f.actor_url')
      .select((eb) => eb.fn.coalesce('a.shared_inbox_url', 'a.inbox_url').as('inbox'))
      .where('f.user_id', '=', userId)
      .distinct()
      .execute();
    return rows.map((r) => r.inbox).sort();
  }

  async addFollowing(row: RemoteFollowing): Promise<boolean> {
    return insertIfAbsent(this.db, 'remote_following', { ...row, accepted: row.accepted ? 1 : 0 });
  }

  async acceptFollowing(actorUrl: string, followId: string): Promise<boolean> {
    const r = await this.db
      .updateTable('remote_following')
      .set({ accepted: 1 })
      .where('actor_url', '=', actorUrl)
      .where('follow_id', '=', followId)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  async removeFollowing(userId: number, actorUrl: string): Promise<RemoteFollowing | null> {
    const row = await this.findFollowing(userId, actorUrl);
    if (!row) return null;
    const r = await this.db
      .deleteFrom('remote_following')
      .where('user_id', '=', userId)
      .where('actor_url', '=', actorUrl)
      .executeTakeFirst();
    // Of two concurrent removals only the one that deleted the row reports it (and sends the Undo).
    return Number(r.numDeletedRows) > 0 ? row : null;
  }

  async findFollowing(userId: number, actorUrl: string): Promise<RemoteFollowing | null> {
    const row = await this.db
      .selectFrom('remote_following')
      .selectAll()
      .where('user_id', '=', userId)
      .where('actor_url', '=', actorUrl)
      .executeTakeFirst();
    return row ? following(row) : null;
  }

  async following(userId: number, page: PageRequest): Promise<Counted<RemoteFollowing>> {
    const [rows, total] = await Promise.all([
      this.db
        .selectFrom('remote_following')
        .selectAll()
        .where('user_id', '=', userId)
        .orderBy('followed_at', 'desc')
        .orderBy('actor_url', 'desc')
        .limit(page.perPage)
        .offset(offsetOf(page))
        .execute(),
      this.countFollowing(userId),
    ]);
    return { items: rows.map(following), total };
  }

  async countFollowing(userId: number): Promise<number> {
    const r = await this.db
      .selectFrom('remote_following')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow();
    return Number(r.n);
  }

  // The federation profile shows these: built once (prepared.ts).
  private readonly countsQuery = prepared((userId: number) =>
    this.db.selectNoFrom(() => {
      const { followers, following } = remoteFollowCounts(this.db, userId);
      return [followers.as('followers'), following.as('following')];
    }),
  );

  async counts(userId: number): Promise<{ followers: number; following: number }> {
    const [r] = await this.countsQuery(this.db, userId);
    return { followers: Number(r.followers), following: Number(r.following) };
  }

  async followingAmong(userId: number, actorUrls: string[]): Promise<Set<string>> {
    if (actorUrls.length === 0) return new Set();
    const rows = await this.db
      .selectFrom('remote_following')
      .select('actor_url')
      .where('user_id', '=', userId)
      .where('actor_url', 'in', actorUrls)
      .execute();
    return new Set(rows.map((r) => r.actor_url));
  }

  async isFollowedLocally(actorUrl: string): Promise<boolean> {
    return !!(await this.db.selectFrom('remote_following').select('user_id').where('actor_url', '=', actorUrl).limit(1).executeTakeFirst());
  }

  async removeAllOfDomain(domain: string): Promise<number> {
    const followers = await this.db
      .deleteFrom('remote_followers')
      .where('actor_url', 'in', actorsOnDomain(this.db, domain))
      .executeTakeFirst();
    const following = await this.db
      .deleteFrom('remote_following')
      .where('actor_url', 'in', actorsOnDomain(this.db, domain))
      .executeTakeFirst();
    return Number(followers.numDeletedRows) + Number(following.numDeletedRows);
  }
}

const remotePost = (r: Omit<RemotePostsTable, 'id'> & { id: number }): RemotePost => ({
  ...r,
  media_type: r.media_type === 'image' || r.media_type === 'video' ? r.media_type : null,
});

export class SqlRemotePostRepository implements RemotePostRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async upsert(post: RemotePostInput, at: Timestamp): Promise<'inserted' | 'updated' | null> {
    if (await insertIfAbsent(this.db, 'remote_posts', { ...post, created_at: at, updated_at: null })) return 'inserted';
    const r = await this.db
      .updateTable('remote_posts')
      .set({ url: post.url, content: post.content, media_url: post.media_url, media_type: post.media_type, updated_at: at })
      .where('object_id', '=', post.object_id)
      .where('actor_url', '=', post.actor_url)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0 ? 'updated' : null;
  }

  async delete(objectId: string, actorUrl: string): Promise<boolean> {
    const r = await this.db
      .deleteFrom('remote_posts')
      .where('object_id', '=', objectId)
      .where('actor_url', '=', actorUrl)
      .executeTakeFirst();
    return Number(r.numDeletedRows) > 0;
  }

  async feed(userId: number, page: PageRequest): Promise<Counted<RemotePost>> {
    const base = this.db
      .selectFrom('remote_posts as p')
      .innerJoin('remote_following as f', 'f.actor_url', 'p.actor_url')
      .where('f.user_id', '=', userId);
    const [rows, count] = await Promise.all([
      base.selectAll('p').orderBy('p.published_at', 'desc').orderBy('p.id', 'desc').limit(page.perPage).offset(offsetOf(page)).execute(),
      base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { items: rows.map(remotePost), total: Number(count.n) };
  }

  async ofActor(actorUrl: string, limit: number): Promise<RemotePost[]> {
    const rows = await this.db
      .selectFrom('remote_posts')
      .selectAll()
      .where('actor_url', '=', actorUrl)
      .orderBy('published_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
    return rows.map(remotePost);
  }

  async deleteOfDomain(domain: string): Promise<number> {
    const r = await this.db.deleteFrom('remote_posts').where('actor_url', 'in', actorsOnDomain(this.db, domain)).executeTakeFirst();
    return Number(r.numDeletedRows);
  }
}

const hashKey = (key: string) => createHash('sha256').update(key).digest('hex');

export class SqlFederationKeyValues implements FederationKeyValues {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: SqlDialect,
  ) {}

  async get(key: string, now: Timestamp): Promise<unknown | undefined> {
    const row = await this.db
      .selectFrom('federation_kv')
      .select(['value', 'expires_at'])
      .where('key_hash', '=', hashKey(key))
      .executeTakeFirst();
    if (!row || (row.expires_at !== null && row.expires_at <= now)) return undefined;
    return JSON.parse(row.value) as unknown;
  }

  async set(key: string, value: unknown, expiresAt: Timestamp | null): Promise<void> {
    const row = { key_hash: hashKey(key), value: JSON.stringify(value) ?? 'null', expires_at: expiresAt };
    await insertOrUpdate(this.db, this.dialect, 'federation_kv', [row], ['key_hash'], { value: row.value, expires_at: expiresAt });
  }

  async delete(key: string): Promise<void> {
    await this.db.deleteFrom('federation_kv').where('key_hash', '=', hashKey(key)).execute();
  }

  async purgeExpired(now: Timestamp): Promise<number> {
    const r = await this.db.deleteFrom('federation_kv').where('expires_at', '<=', now).executeTakeFirst();
    return Number(r.numDeletedRows);
  }
}

/**
 * The queue on one table. Claiming is a select of due candidates, then one conditional update per
 * candidate that takes its lease only if nobody holds one: of several instances claiming at once,
 * each message goes to exactly one (the update that changed the row), on MySQL and SQLite alike.
 */
export class SqlFederationQueue implements FederationQueue {
  constructor(private readonly db: Kysely<Database>) {}

  async enqueue(messages: NewQueuedMessage[]): Promise<void> {
    if (messages.length === 0) return;
    await this.db
      .insertInto('federation_queue')
      .values(
        messages.map((m) => ({
          channel: m.channel,
          payload: JSON.stringify(m.payload),
          attempts: 0,
          due_at: m.due_at,
          leased_until: null,
          last_error: null,
        })),
      )
      .execute();
  }

  async claim(now: Timestamp, limit: number, leaseUntil: Timestamp): Promise<QueuedMessage[]> {
    const candidates = await this.db
      .selectFrom('federation_queue')
      .select('id')
      .where('dead_at', 'is', null)
      .where('due_at', '<=', now)
      .where((eb) => eb.or([eb('leased_until', 'is', null), eb('leased_until', '<=', now)]))
      .orderBy('due_at')
      .orderBy('id')
      .limit(limit)
      .execute();
    const won: number[] = [];
    for (const { id } of candidates) {
      const r = await this.db
        .updateTable('federation_queue')
        .set({ leased_until: leaseUntil })
        .where('id', '=', id)
        .where((eb) => eb.or([eb('leased_until', 'is', null), eb('leased_until', '<=', now)]))
        .executeTakeFirst();
      if (Number(r.numUpdatedRows) === 1) won.push(id);
    }
    if (won.length === 0) return [];
    const rows = await this.db
      .selectFrom('federation_queue')
      .select(['id', 'channel', 'payload', 'attempts', 'due_at'])
      .where('id', 'in', won)
      .orderBy('due_at')
      .orderBy('id')
      .execute();
    return rows.map((r) => ({ ...r, payload: JSON.parse(r.payload) as unknown }));
  }

  async complete(id: number): Promise<void> {
    await this.db.deleteFrom('federation_queue').where('id', '=', id).execute();
  }

  async find(id: number): Promise<QueuedMessage | null> {
    const row = await this.db
      .selectFrom('federation_queue')
      .select(['id', 'channel', 'payload', 'attempts', 'due_at'])
      .where('id', '=', id)
      .where('dead_at', 'is', null)
      .executeTakeFirst();
    return row ? { ...row, payload: JSON.parse(row.payload) as unknown } : null;
  }

  async reschedule(id: number, attempts: number, dueAt: Timestamp, error: string): Promise<void> {
    await this.db
      .updateTable('federation_queue')
      .set({ attempts, due_at: dueAt, leased_until: null, last_error: error.slice(0, 1000) })
      .where('id', '=', id)
      .execute();
  }

  async bury(id: number, attempts: number, error: string, at: Timestamp): Promise<void> {
    await this.db
      .updateTable('federation_queue')
      .set({ attempts, leased_until: null, last_error: error.slice(0, 1000), dead_at: at })
      .where('id', '=', id)
      .execute();
  }

  async pending(channel?: string): Promise<number> {
    let q = this.db
      .selectFrom('federation_queue')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('dead_at', 'is', null);
    if (channel !== undefined) q = q.where('channel', '=', channel);
    return Number((await q.executeTakeFirstOrThrow()).n);
  }

  async list(state: QueueState, channels: string[], page: PageRequest): Promise<Counted<QueueEntry>> {
    if (channels.length === 0) return { items: [], total: 0 };
    let base = this.db.selectFrom('federation_queue').where('channel', 'in', channels);
    base =
      state === 'dead'
        ? base.where('dead_at', 'is not', null)
        : base.where('dead_at', 'is', null).where('attempts', state === 'pending' ? '=' : '>', 0);
    const [rows, count] = await Promise.all([
      base
        .select(['id', 'channel', 'payload', 'attempts', 'due_at', 'leased_until', 'last_error', 'dead_at'])
        .orderBy('due_at')
        .orderBy('id')
        .limit(page.perPage)
        .offset(offsetOf(page))
        .execute(),
      base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { items: rows.map((r) => ({ ...r, payload: JSON.parse(r.payload) as unknown })), total: Number(count.n) };
  }

  async retry(id: number, now: Timestamp): Promise<boolean> {
    // In place, and only while no worker holds it: a retry never makes a second copy of a delivery.
    const r = await this.db
      .updateTable('federation_queue')
      .set({ due_at: now, dead_at: null, leased_until: null })
      .where('id', '=', id)
      .where((eb) => eb.or([eb('dead_at', 'is not', null), eb('attempts', '>', 0)]))
      .where((eb) => eb.or([eb('leased_until', 'is', null), eb('leased_until', '<=', now)]))
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  async discard(id: number, now: Timestamp): Promise<boolean> {
    const r = await this.db
      .deleteFrom('federation_queue')
      .where('id', '=', id)
      .where((eb) => eb.or([eb('leased_until', 'is', null), eb('leased_until', '<=', now)]))
      .executeTakeFirst();
    return Number(r.numDeletedRows) === 1;
  }
}

/** NodeInfo's usage: accounts (not deleted), posts and comments of this instance. */
export class SqlInstanceUsage {
  constructor(private readonly db: Kysely<Database>) {}

  async users(): Promise<number> {
    const r = await this.db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('deleted_at', 'is', null)
      .executeTakeFirstOrThrow();
    return Number(r.n);
  }

  async localPosts(): Promise<number> {
    const r = await this.db
      .selectFrom('posts')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(r.n);
  }

  async localComments(): Promise<number> {
    const r = await this.db
      .selectFrom('comments')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(r.n);
  }
}
