import { describe, expect, it } from 'vitest';
import type { UserRepository } from '../../accounts/ports.js';
import { aNewUser } from '../../accounts/testing/mothers.js';
import type { DomainBlock, DomainBlockRepository } from '../domain-blocks.js';
import type { RemoteActor, RemotePostInput } from '../model.js';
import type {
  ActorKeyRepository,
  FederationKeyValues,
  FederationQueue,
  RemoteActorRepository,
  RemoteFollowRepository,
  RemotePostRepository,
} from '../ports.js';

export interface FederationPorts {
  users: UserRepository;
  keys: ActorKeyRepository;
  actors: RemoteActorRepository;
  follows: RemoteFollowRepository;
  posts: RemotePostRepository;
  kv: FederationKeyValues;
  queue: FederationQueue;
  blocks: DomainBlockRepository;
}

const page = (p = 1, perPage = 20) => ({ page: p, perPage });

export function aRemoteActor(n: number, overrides: Partial<RemoteActor> = {}): RemoteActor {
  return {
    actor_url: `https://remote${n % 2}.example/users/u${n}`,
    inbox_url: `https://remote${n % 2}.example/users/u${n}/inbox`,
    shared_inbox_url: `https://remote${n % 2}.example/inbox`,
    outbox_url: `https://remote${n % 2}.example/users/u${n}/outbox`,
    username: `u${n}`,
    display_name: `User ${n}`,
    domain: `remote${n % 2}.example`,
    avatar: null,
    summary: '<p>hi</p>',
    profile_url: `https://remote${n % 2}.example/@u${n}`,
    fetched_at: '2026-01-01 00:00:00',
    ...overrides,
  };
}

function aNote(actor: RemoteActor, n: number, published_at: string): RemotePostInput {
  return {
    object_id: `${actor.actor_url}/notes/${n}`,
    actor_url: actor.actor_url,
    url: `${actor.profile_url}/${n}`,
    content: `<p>note ${n}</p>`,
    media_url: null,
    media_type: null,
    published_at,
  };
}

/** The federation ports, held to the same behaviour in memory and on SQL. */
export function federationContract(name: string, make: () => Promise<FederationPorts>) {
  describe(`${name}: keys`, () => {
    it('stores one key pair per user; a second insert returns the first', async () => {
      const { users, keys } = await make();
      const u = await users.create(aNewUser());
      expect(await keys.find(u.id)).toBeNull();
      const first = {
        user_id: u.id,
        public_jwk: '{"kty":"RSA","n":"a"}',
        private_jwk: '{"kty":"RSA","d":"b"}',
        created_at: '2026-01-01 00:00:00',
      };
      expect(await keys.insertIfAbsent(first)).toEqual(first);
      expect(await keys.insertIfAbsent({ ...first, public_jwk: '{"other":1}' })).toEqual(first);
      expect(await keys.find(u.id)).toEqual(first);
    });
  });

  describe(`${name}: actors and follows`, () => {
    it('upserts actors and finds them by URL', async () => {
      const { actors } = await make();
      await actors.upsert(aRemoteActor(1));
      await actors.upsert(aRemoteActor(1, { display_name: 'Renamed' }));
      expect((await actors.find(aRemoteActor(1).actor_url))?.display_name).toBe('Renamed');
      expect(await actors.find('https://nowhere.example/x')).toBeNull();
      const many = await actors.findMany([aRemoteActor(1).actor_url, 'https://nowhere.example/x']);
      expect([...many.keys()]).toEqual([aRemoteActor(1).actor_url]);
    });

    it('keeps one follower row per remote actor, lists newest first, and gives one inbox per server', async () => {
      const { users, actors, follows } = await make();
      const u = await users.create(aNewUser());
      const other = await users.create(aNewUser());
      for (const n of [1, 2, 3]) await actors.upsert(aRemoteActor(n));
      await actors.upsert(aRemoteActor(5, { shared_inbox_url: null }));
      expect(
        await follows.addFollower({
          user_id: u.id,
          actor_url: aRemoteActor(1).actor_url,
          follow_id: 'f1',
          followed_at: '2026-01-01 00:00:01',
        }),
      ).toBe(true);
      expect(
        await follows.addFollower({
          user_id: u.id,
          actor_url: aRemoteActor(1).actor_url,
          follow_id: 'f1b',
          followed_at: '2026-01-01 00:00:09',
        }),
      ).toBe(false);
      await follows.addFollower({
        user_id: u.id,
        actor_url: aRemoteActor(2).actor_url,
        follow_id: 'f2',
        followed_at: '2026-01-01 00:00:02',
      });
      await follows.addFollower({
        user_id: u.id,
        actor_url: aRemoteActor(3).actor_url,
        follow_id: 'f3',
        followed_at: '2026-01-01 00:00:03',
      });
      await follows.addFollower({
        user_id: u.id,
        actor_url: aRemoteActor(5).actor_url,
        follow_id: 'f5',
        followed_at: '2026-01-01 00:00:04',
      });
      await follows.addFollower({
        user_id: other.id,
        actor_url: aRemoteActor(2).actor_url,
        follow_id: 'g2',
        followed_at: '2026-01-01 00:00:05',
      });

      expect(await follows.countFollowers(u.id)).toBe(4);
      expect(await follows.hasFollowers(u.id)).toBe(true);
      expect(await follows.hasFollowers(other.id)).toBe(true);
      expect(await follows.hasFollowers((await users.create(aNewUser())).id)).toBe(false);
      const first = await follows.followers(u.id, page(1, 2));
      expect(first.total).toBe(4);
      expect(first.items.map((f) => f.actor_url)).toEqual([aRemoteActor(5).actor_url, aRemoteActor(3).actor_url]);
      expect((await follows.followers(u.id, page(2, 2))).items.map((f) => f.follow_id)).toEqual(['f2', 'f1b']);
      // Actors 1 and 3 share remote1's inbox, actor 2 remote0's; actor 5 has no shared inbox.
      expect(await follows.followerInboxes(u.id)).toEqual(
        ['https://remote0.example/inbox', 'https://remote1.example/inbox', aRemoteActor(5).inbox_url].sort(),
      );

      expect(await follows.removeFollower(u.id, aRemoteActor(2).actor_url)).toBe(true);
      expect(await follows.removeFollower(u.id, aRemoteActor(2).actor_url)).toBe(false);
      expect(await follows.countFollowers(u.id)).toBe(3);
      expect(await follows.countFollowers(other.id)).toBe(1);
      // By the Follow's id, and only the actor's own.
      expect(await follows.removeFollowerByFollowId(aRemoteActor(3).actor_url, 'f1b')).toBe(false);
      expect(await follows.removeFollowerByFollowId(aRemoteActor(1).actor_url, 'f1b')).toBe(true);
      expect(await follows.countFollowers(u.id)).toBe(2);
    });

    it('stores a pending follow once, accepts it by its Follow id and actor, and removes it', async () => {
      const { users, actors, follows } = await make();
      const u = await users.create(aNewUser());
      const a = aRemoteActor(1);
      const b = aRemoteActor(2);
      await actors.upsert(a);
      await actors.upsert(b);
      const row = {
        user_id: u.id,
        actor_url: a.actor_url,
        follow_id: 'https://plaza.test/f/1',
        accepted: false,
        followed_at: '2026-01-01 00:00:00',
      };
      expect(await follows.addFollowing(row)).toBe(true);
      expect(await follows.addFollowing({ ...row, follow_id: 'https://plaza.test/f/2' })).toBe(false);
      await follows.addFollowing({
        ...row,
        actor_url: b.actor_url,
        follow_id: 'https://plaza.test/f/3',
        followed_at: '2026-01-01 00:00:01',
      });
      expect(await follows.isFollowedLocally(a.actor_url)).toBe(true);
      expect(await follows.isFollowedLocally('https://nowhere.example/x')).toBe(false);
      expect(await follows.acceptFollowing(b.actor_url, 'https://plaza.test/f/1')).toBe(false);
      expect(await follows.acceptFollowing(a.actor_url, 'https://plaza.test/f/1')).toBe(true);
      expect(await follows.findFollowing(u.id, a.actor_url)).toEqual({ ...row, accepted: true });
      expect((await follows.following(u.id, page())).items.map((f) => f.actor_url)).toEqual([b.actor_url, a.actor_url]);
      expect(await follows.countFollowing(u.id)).toBe(2);
      expect(await follows.counts(u.id)).toEqual({ followers: 0, following: 2 });
      expect(await follows.followingAmong(u.id, [a.actor_url, 'https://nowhere.example/x'])).toEqual(new Set([a.actor_url]));
      expect(await follows.removeFollowing(u.id, a.actor_url)).toEqual({ ...row, accepted: true });
      expect(await follows.removeFollowing(u.id, a.actor_url)).toBeNull();
      expect(await follows.countFollowing(u.id)).toBe(1);
    });
  });

  describe(`${name}: remote posts`, () => {
    it('inserts, updates only by the same actor, deletes only by the same actor, and feeds the followers', async () => {
      const { users, actors, follows, posts } = await make();
      const u = await users.create(aNewUser());
      const a = aRemoteActor(1);
      const b = aRemoteActor(2);
      await actors.upsert(a);
      await actors.upsert(b);
      await follows.addFollowing({
        user_id: u.id,
        actor_url: a.actor_url,
        follow_id: 'f',
        accepted: true,
        followed_at: '2026-01-01 00:00:00',
      });
      expect(await posts.upsert(aNote(a, 1, '2026-01-02 00:00:00'), '2026-01-05 00:00:00')).toBe('inserted');
      expect(await posts.upsert(aNote(a, 2, '2026-01-03 00:00:00'), '2026-01-05 00:00:00')).toBe('inserted');
      expect(await posts.upsert(aNote(b, 1, '2026-01-04 00:00:00'), '2026-01-05 00:00:00')).toBe('inserted');
      expect(await posts.upsert({ ...aNote(a, 1, '2026-01-02 00:00:00'), content: '<p>edited</p>' }, '2026-01-06 00:00:00')).toBe(
        'updated',
      );
      // Another actor cannot overwrite an object it does not own.
      expect(
        await posts.upsert({ ...aNote(a, 1, '2026-01-02 00:00:00'), actor_url: b.actor_url, content: 'hijack' }, '2026-01-06 00:00:00'),
      ).toBeNull();

      const feed = await posts.feed(u.id, page());
      expect(feed.total).toBe(2);
      expect(feed.items.map((p) => p.object_id)).toEqual([aNote(a, 2, '').object_id, aNote(a, 1, '').object_id]);
      expect(feed.items[1]).toMatchObject({
        content: '<p>edited</p>',
        created_at: '2026-01-05 00:00:00',
        updated_at: '2026-01-06 00:00:00',
        id: expect.any(Number),
      });
      expect((await posts.ofActor(b.actor_url, 5)).map((p) => p.object_id)).toEqual([aNote(b, 1, '').object_id]);

      expect(await posts.delete(aNote(a, 2, '').object_id, b.actor_url)).toBe(false);
      expect(await posts.delete(aNote(a, 2, '').object_id, a.actor_url)).toBe(true);
      expect((await posts.feed(u.id, page())).total).toBe(1);
    });
  });

  federationKeyValuesContract(name, async () => (await make()).kv);

  describe(`${name}: queue`, () => {
    it('claims due messages in order under a lease, reschedules and completes them', async () => {
      const { queue } = await make();
      await queue.enqueue([
        { channel: 'deliver', payload: { n: 1 }, due_at: '2026-01-01 00:00:00' },
        { channel: 'deliver', payload: { n: 2 }, due_at: '2026-01-01 00:00:05' },
        { channel: 'fanout', payload: { n: 3 }, due_at: '2026-01-01 00:01:00' },
      ]);
      expect(await queue.pending()).toBe(3);
      expect(await queue.pending('fanout')).toBe(1);
      const claimed = await queue.claim('2026-01-01 00:00:10', 10, '2026-01-01 00:05:00');
      expect(claimed.map((m) => m.payload)).toEqual([{ n: 1 }, { n: 2 }]);
      expect(claimed[0]).toMatchObject({ channel: 'deliver', attempts: 0, id: expect.any(Number) });
      // Leased: nobody else gets them before the lease ends.
      expect(await queue.claim('2026-01-01 00:00:20', 10, '2026-01-01 00:05:00')).toEqual([]);
      await queue.complete(claimed[0].id);
      await queue.reschedule(claimed[1].id, 1, '2026-01-01 00:02:00', 'HTTP 503');
      const later = await queue.claim('2026-01-01 00:02:00', 10, '2026-01-01 00:07:00');
      expect(later.map((m) => [m.payload, m.attempts])).toEqual([
        [{ n: 3 }, 0],
        [{ n: 2 }, 1],
      ]);
      // An expired lease makes the message claimable again (a worker that died).
      expect((await queue.claim('2026-01-01 00:07:00', 1, '2026-01-01 00:09:00')).length).toBe(1);
      expect(await queue.pending()).toBe(2);
    });
  });

  describe(`${name}: domain blocks`, () => {
    const aBlock = (domain: string, over: Partial<DomainBlock> = {}): DomainBlock => ({
      domain,
      severity: 'suspend',
      reason: 'spam',
      created_by: null,
      created_at: '2026-01-01 00:00:00',
      ...over,
    });

    it('stores a domain once, lists every block by domain, and removes it once', async () => {
      const { blocks } = await make();
      const tag = Math.random().toString(36).slice(2, 8);
      expect(await blocks.add(aBlock(`b-${tag}.example`, { severity: 'silence', reason: 'noisy' }))).toBe(true);
      expect(await blocks.add(aBlock(`a-${tag}.example`))).toBe(true);
      expect(await blocks.add(aBlock(`a-${tag}.example`, { reason: 'again' }))).toBe(false);
      const mine = (await blocks.all()).filter((b) => b.domain.endsWith(`${tag}.example`));
      expect(mine).toEqual([aBlock(`a-${tag}.example`), aBlock(`b-${tag}.example`, { severity: 'silence', reason: 'noisy' })]);
      expect(await blocks.remove(`a-${tag}.example`)).toEqual(aBlock(`a-${tag}.example`));
      expect(await blocks.remove(`a-${tag}.example`)).toBeNull();
      expect((await blocks.all()).map((b) => b.domain)).not.toContain(`a-${tag}.example`);
    });

    it('removes the follows both ways and the notes of a domain’s known actors, subdomains and ports included, and nothing else', async () => {
      const { users, actors, follows, posts } = await make();
      const u = await users.create(aNewUser());
      const tag = Math.random().toString(36).slice(2, 8);
      const on = (host: string, n: number) => {
        const base = `https://${host}/users/u${n}`;
        return aRemoteActor(n, {
          actor_url: base,
          inbox_url: `${base}/inbox`,
          shared_inbox_url: null,
          outbox_url: null,
          domain: host,
          profile_url: base,
        });
      };
      const blocked = [on(`${tag}.example`, 1), on(`a.${tag}.example`, 2), on(`${tag}.example:8443`, 3)];
      const spared = [on(`not${tag}.example`, 4), on(`${tag}.example.org`, 5)];
      for (const a of [...blocked, ...spared]) {
        await actors.upsert(a);
        await follows.addFollower({
          user_id: u.id,
          actor_url: a.actor_url,
          follow_id: `${a.actor_url}#f`,
          followed_at: '2026-01-01 00:00:00',
        });
        await follows.addFollowing({
          user_id: u.id,
          actor_url: a.actor_url,
          follow_id: `${a.actor_url}#g`,
          accepted: true,
          followed_at: '2026-01-01 00:00:00',
        });
        await posts.upsert(aNote(a, 1, '2026-01-01 00:00:00'), '2026-01-01 00:00:00');
      }
      expect(await posts.deleteOfDomain(`${tag}.example`)).toBe(3);
      expect(await follows.removeAllOfDomain(`${tag}.example`)).toBe(6);
      expect(await follows.removeAllOfDomain(`${tag}.example`)).toBe(0);
      expect((await follows.followers(u.id, page())).items.map((f) => f.actor_url).sort()).toEqual(spared.map((a) => a.actor_url).sort());
      expect((await follows.following(u.id, page())).items.map((f) => f.actor_url).sort()).toEqual(spared.map((a) => a.actor_url).sort());
      expect((await posts.feed(u.id, page())).items.map((p) => p.actor_url).sort()).toEqual(spared.map((a) => a.actor_url).sort());
    });
  });

  describe(`${name}: queue states`, () => {
    it('buries a message it gives up on (never claimed again), lists pending, failing and dead, and retries or discards only what no worker holds', async () => {
      const { queue } = await make();
      const channel = `admin-${Math.random().toString(36).slice(2, 8)}`;
      await queue.enqueue([
        { channel, payload: { n: 1 }, due_at: '2026-02-01 00:00:00' },
        { channel, payload: { n: 2 }, due_at: '2026-02-01 00:00:01' },
        { channel, payload: { n: 3 }, due_at: '2026-02-01 00:00:02' },
      ]);
      const mine = async (state: 'pending' | 'failing' | 'dead') =>
        (await queue.list(state, [channel], page())).items.map((e) => (e.payload as { n: number }).n);
      expect(await mine('pending')).toEqual([1, 2, 3]);
      expect(await queue.list('pending', [channel], page(2, 2))).toMatchObject({
        total: 3,
        items: [{ payload: { n: 3 }, attempts: 0, dead_at: null }],
      });
      const claimed = (await queue.claim('2026-02-01 00:00:10', 100, '2026-02-01 00:05:00')).filter((m) => m.channel === channel);
      expect(claimed.map((m) => (m.payload as { n: number }).n)).toEqual([1, 2, 3]);
      const [one, two, three] = claimed;
      await queue.reschedule(one.id, 1, '2026-02-01 00:01:00', 'HTTP 503');
      await queue.bury(two.id, 10, 'HTTP 500', '2026-02-01 00:00:20');
      // Three is being delivered for the first time: still pending.
      expect(await mine('pending')).toEqual([3]);
      expect(await mine('failing')).toEqual([1]);
      expect(await queue.list('dead', [channel], page())).toMatchObject({
        total: 1,
        items: [{ id: two.id, attempts: 10, last_error: 'HTTP 500', dead_at: '2026-02-01 00:00:20', leased_until: null }],
      });
      expect(await queue.pending(channel)).toBe(2);
      // find reads a live message whatever its lease (BullMQ's worker, docs/decisions/0215), never a dead one.
      expect(await queue.find(three.id)).toMatchObject({ id: three.id, channel, payload: { n: 3 }, attempts: 0 });
      expect(await queue.find(one.id)).toMatchObject({ id: one.id, attempts: 1 });
      expect(await queue.find(two.id)).toBeNull();
      // Dead is never claimed; three is still held by its worker.
      expect(
        (await queue.claim('2026-02-01 00:01:00', 100, '2026-02-01 00:06:00')).filter((m) => m.channel === channel).map((m) => m.id),
      ).toEqual([one.id]);
      // Held (one just claimed, three leased): neither retried nor discarded.
      expect(await queue.retry(one.id, '2026-02-01 00:01:30')).toBe(false);
      expect(await queue.discard(three.id, '2026-02-01 00:01:30')).toBe(false);
      // Not tried yet: nothing to retry.
      await queue.enqueue([{ channel, payload: { n: 4 }, due_at: '2026-02-01 00:00:00' }]);
      const four = (await queue.list('pending', [channel], page())).items[0];
      expect(await queue.retry(four.id, '2026-02-01 00:01:30')).toBe(false);
      // A dead one comes back due now, with its attempts, and is claimed once.
      expect(await queue.retry(two.id, '2026-02-01 00:01:50')).toBe(true);
      // Now failing, not held: a second retry moves the same row again, never copies it.
      expect(await queue.retry(two.id, '2026-02-01 00:02:00')).toBe(true);
      expect(await mine('dead')).toEqual([]);
      expect(await queue.list('failing', [channel], page())).toMatchObject({
        total: 2,
        items: [{ id: one.id }, { id: two.id, due_at: '2026-02-01 00:02:00', dead_at: null, attempts: 10 }],
      });
      const again = (await queue.claim('2026-02-01 00:02:00', 100, '2026-02-01 00:07:00')).filter((m) => m.channel === channel);
      expect(again.map((m) => m.id)).toEqual([four.id, two.id]);
      // Leases over: discarded once.
      expect(await queue.discard(three.id, '2026-02-01 00:10:00')).toBe(true);
      expect(await queue.discard(three.id, '2026-02-01 00:10:00')).toBe(false);
      expect(await queue.list('pending', ['no-such-channel'], page())).toEqual({ items: [], total: 0 });
    });
  });
}

/** Fedify's key-value store alone: run by federationContract, and on the adapters of that port only (Redis). */
export function federationKeyValuesContract(name: string, make: () => Promise<FederationKeyValues>) {
  describe(`${name}: key-value store`, () => {
    it('gets what was set until it expires, overwrites, deletes and purges', async () => {
      const kv = await make();
      await kv.set('a', { x: [1, 'two'] }, null);
      await kv.set('b', 'short', '2026-01-01 00:00:10');
      expect(await kv.get('a', '2026-01-01 00:00:00')).toEqual({ x: [1, 'two'] });
      expect(await kv.get('b', '2026-01-01 00:00:09')).toBe('short');
      expect(await kv.get('b', '2026-01-01 00:00:10')).toBeUndefined();
      await kv.set('a', 2, null);
      expect(await kv.get('a', '2026-01-01 00:00:00')).toBe(2);
      expect(await kv.purgeExpired('2026-01-01 00:00:11')).toBe(1);
      await kv.delete('a');
      expect(await kv.get('a', '2026-01-01 00:00:00')).toBeUndefined();
      expect(await kv.get('missing', '2026-01-01 00:00:00')).toBeUndefined();
    });
  });
}
