import { ManualClock, toTimestamp } from '@plaza/domain';
import { domainCovers } from '@plaza/domain/federation';
import {
  aRemoteActor,
  InMemoryActorKeyRepository,
  InMemoryFederationQueue,
  InMemoryRemoteActorRepository,
  InMemoryRemoteFollowRepository,
} from '@plaza/domain/federation/testing';
import { describe, expect, it } from 'vitest';
import { DatabaseMessageQueue } from './fedify-store.js';
import { ActorKeys } from './keys.js';
import { DELIVER_CHANNEL, FANOUT_CHANNEL, FederationWorker } from './outbox.js';
import { GuardedClient, type GuardedRequest } from './ssrf.js';
import { FederationUrls } from './urls.js';

/** A client answering each POST with the next status of a script, recording where it went. */
class ScriptedClient extends GuardedClient {
  readonly sent: { url: string; signature: string | null }[] = [];
  constructor(private readonly statuses: number[]) {
    super({ allowPrivate: false });
  }
  override async fetch(url: string | URL, init: GuardedRequest = {}): Promise<Response> {
    this.sent.push({ url: String(url), signature: new Headers(init.headers as never).get('signature') });
    return new Response(null, { status: this.statuses.shift() ?? 202 });
  }
}

function setup(statuses: number[], suspended: string[] = []) {
  const clock = new ManualClock('2026-03-01T10:00:00Z');
  const queue = new InMemoryFederationQueue();
  const actors = new InMemoryRemoteActorRepository();
  const follows = new InMemoryRemoteFollowRepository(actors);
  const client = new ScriptedClient(statuses);
  const urls = new FederationUrls('https://plaza.example');
  const dropped: string[] = [];
  const worker = new FederationWorker(
    queue,
    { queue: new DatabaseMessageQueue(queue, clock), start: () => {} },
    follows,
    new ActorKeys(new InMemoryActorKeyRepository(), clock),
    urls,
    client,
    clock,
    { delivered: () => {}, failed: () => {}, dropped: (inbox) => void dropped.push(inbox) },
    { isSuspended: async (url) => suspended.some((d) => domainCovers(d, new URL(url).hostname)) },
  );
  const deliver = (inbox = 'https://remote.example/inbox') =>
    queue.enqueue([
      {
        channel: DELIVER_CHANNEL,
        payload: { user_id: 1, username: 'alice', inbox, activity: { type: 'Create', actor: urls.actor('alice') } },
        due_at: toTimestamp(clock.now()),
      },
    ]);
  return { clock, queue, actors, follows, client, worker, deliver, dropped };
}

describe('FederationWorker', () => {
  it("as BullMQ's lane: claims with the lease, throws a retryable failure after rescheduling it, buries on the last attempt without throwing (docs/decisions/0215)", async () => {
    const { queue, client, worker, deliver } = setup([503, 503, 202]);
    await deliver();
    const [id] = await worker.lane.claimDue(10);
    expect(id).toEqual(expect.any(String));
    // Leased: a second relay pass takes nothing.
    expect(await worker.lane.claimDue(10)).toEqual([]);
    await expect(worker.lane.deliver(id, false)).rejects.toThrow('HTTP 503');
    expect(await queue.find(Number(id))).toMatchObject({ attempts: 1 });
    // BullMQ's last attempt: given up, dead on the Deliveries page, and the job ends without error.
    await expect(worker.lane.deliver(id, true)).resolves.toBeUndefined();
    expect(await queue.find(Number(id))).toBeNull();
    expect((await queue.list('dead', [DELIVER_CHANNEL], { page: 1, perPage: 20 })).items).toEqual([
      expect.objectContaining({ attempts: 2, last_error: 'HTTP 503 from https://remote.example/inbox' }),
    ]);
    // A stale job of a dead message sends nothing.
    await worker.lane.deliver(id, false);
    expect(client.sent).toHaveLength(2);
    // A delivery that succeeds completes its row.
    await deliver();
    const [next] = await worker.lane.claimDue(10);
    await worker.lane.deliver(next, false);
    expect(client.sent).toHaveLength(3);
    expect(await queue.pending()).toBe(0);
  });

  it('signs each delivery, and retries a failing one with exponential backoff until it succeeds', async () => {
    const { clock, queue, client, worker, deliver } = setup([503, 503, 429, 202]);
    await deliver();
    await worker.drain();
    expect(client.sent).toHaveLength(1);
    const signed = /headers="([^"]*)"/.exec(client.sent[0].signature ?? '')?.[1].split(' ') ?? [];
    expect(client.sent[0].signature).toContain(`keyId="https://plaza.example/fediverse/actor.php?username=alice#main-key"`);
    expect(signed).toEqual(expect.arrayContaining(['(request-target)', 'host', 'date', 'digest']));
    // Not due again before 30 s, then 60 s, then 120 s.
    for (const wait of [30, 60, 120]) {
      clock.advance((wait - 1) * 1000);
      await worker.drain();
      const before = client.sent.length;
      clock.advance(1000);
      await worker.drain();
      expect(client.sent.length, `after ${wait} s`).toBe(before + 1);
    }
    expect(client.sent).toHaveLength(4);
    expect(await queue.pending()).toBe(0);
  });

  it('gives up at once on a refusal a retry cannot change, and after 10 attempts otherwise', async () => {
    const refused = setup([400]);
    await refused.deliver();
    await refused.worker.drain();
    expect(await refused.queue.pending()).toBe(0);
    expect(refused.client.sent).toHaveLength(1);

    const down = setup(Array(20).fill(500));
    await down.deliver();
    for (let i = 0; i < 20; i++) {
      await down.worker.drain();
      down.clock.advance(24 * 3600 * 1000);
    }
    expect(down.client.sent).toHaveLength(10);
    expect(await down.queue.pending()).toBe(0);
    // Given up, kept dead for the admin panel (never claimed again).
    expect((await down.queue.list('dead', [DELIVER_CHANNEL], { page: 1, perPage: 20 })).items).toEqual([
      expect.objectContaining({ attempts: 10, last_error: 'HTTP 500 from https://remote.example/inbox', dead_at: expect.any(String) }),
    ]);
    expect((await refused.queue.list('dead', [DELIVER_CHANNEL], { page: 1, perPage: 20 })).items).toEqual([
      expect.objectContaining({ attempts: 1 }),
    ]);
  });

  it('drops a delivery to a suspended domain (queued before the block) and leaves suspended followers out of a fan-out', async () => {
    const { clock, queue, actors, follows, client, worker, deliver, dropped } = setup([], ['remote1.example']);
    await deliver('https://a.remote1.example/inbox');
    for (const n of [1, 2]) {
      await actors.upsert(aRemoteActor(n));
      await follows.addFollower({
        user_id: 1,
        actor_url: aRemoteActor(n).actor_url,
        follow_id: `f${n}`,
        followed_at: '2026-03-01 09:00:00',
      });
    }
    await queue.enqueue([
      {
        channel: FANOUT_CHANNEL,
        payload: { user_id: 1, username: 'alice', activity: { type: 'Create' } },
        due_at: toTimestamp(clock.now()),
      },
    ]);
    await worker.drain();
    expect(client.sent.map((s) => s.url)).toEqual(['https://remote0.example/inbox']);
    expect(dropped).toEqual(['https://a.remote1.example/inbox']);
    expect(await queue.pending()).toBe(0);
    expect((await queue.list('dead', [DELIVER_CHANNEL, FANOUT_CHANNEL], { page: 1, perPage: 20 })).total).toBe(0);
  });

  it('fans an activity out to one delivery per follower inbox (shared inboxes once)', async () => {
    const { clock, queue, actors, follows, client, worker } = setup([]);
    for (const n of [1, 2, 3]) {
      await actors.upsert(aRemoteActor(n));
      await follows.addFollower({
        user_id: 1,
        actor_url: aRemoteActor(n).actor_url,
        follow_id: `f${n}`,
        followed_at: '2026-03-01 09:00:00',
      });
    }
    await queue.enqueue([
      {
        channel: FANOUT_CHANNEL,
        payload: { user_id: 1, username: 'alice', activity: { type: 'Create' } },
        due_at: toTimestamp(clock.now()),
      },
    ]);
    await worker.drain();
    expect(client.sent.map((s) => s.url).sort()).toEqual(['https://remote0.example/inbox', 'https://remote1.example/inbox']);
  });
});
