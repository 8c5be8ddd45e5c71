import { describe, expect, it } from 'vitest';
import { InMemoryUnitOfWork } from '../shared/testing/in-memory-unit-of-work.js';
import type { TokenSession } from './ports.js';
import { SessionCache } from './session-cache.js';
import { InMemoryAuthInvalidation } from './testing/in-memory-auth-invalidation.js';

const AT = new Date('2026-01-01T00:00:00Z');

const session = (userId: number, tokenId = userId, over: Partial<TokenSession> = {}): TokenSession => ({
  id: tokenId,
  expires_at: '2100-01-01 00:00:00',
  last_used_at: null,
  user: {
    id: userId,
    username: `u${userId}`,
    is_admin: false,
    is_moderator: false,
    is_technician: false,
    avatar: null,
    militant_badge: null,
    is_private: false,
  },
  banned: false,
  suspended: false,
  ...over,
});

/** Two processes over one signal, with a clock the test moves. */
function world(settings = { maxEntries: 100, maxAgeMs: 60_000, checkEveryMs: 1000 }) {
  const signal = new InMemoryAuthInvalidation();
  let now = 1_000_000;
  const clock = () => now;
  const make = () => new SessionCache(signal, new InMemoryUnitOfWork(), settings, clock);
  return { signal, a: make(), b: make(), advance: (ms: number) => (now += ms) };
}

function counting(value: () => TokenSession | null) {
  const loader = { loads: 0, load: async () => (loader.loads++, value()) };
  return loader;
}

describe('SessionCache', () => {
  it('reads a token once, then serves it from memory', async () => {
    const { a } = world();
    const db = counting(() => session(1));
    expect(await a.lookup('h1', AT, db.load)).toMatchObject({ id: 1 });
    expect(await a.lookup('h1', AT, db.load)).toMatchObject({ id: 1 });
    expect(db.loads).toBe(1);
  });

  it('forgets an account at once on the process that publishes, within a check on the others', async () => {
    const { a, b, advance } = world();
    let current: TokenSession | null = session(1);
    const db = counting(() => current);
    await a.lookup('h1', AT, db.load);
    await b.lookup('h1', AT, db.load);
    expect(db.loads).toBe(2);
    current = null;
    await a.publish(1);
    expect(await a.lookup('h1', AT, db.load)).toBeNull();
    // The other process trusts its last check for up to a second, then asks again and hears of it.
    expect(await b.lookup('h1', AT, db.load)).not.toBeNull();
    advance(1000);
    expect(await b.lookup('h1', AT, db.load)).toBeNull();
  });

  it("keeps other accounts' sessions when one changes", async () => {
    const { a, b, advance } = world();
    const db = counting(() => session(2));
    await b.lookup('h2', AT, db.load);
    await a.publish(1);
    advance(1000);
    await b.lookup('h2', AT, db.load);
    expect(db.loads).toBe(1);
  });

  it('does not store what a lookup read while an eviction happened', async () => {
    const { a } = world();
    let release!: () => void;
    const slow = async () => {
      await new Promise<void>((resolve) => (release = resolve));
      return session(1);
    };
    const pending = a.lookup('h1', AT, slow);
    await new Promise((resolve) => setImmediate(resolve));
    await a.publish(1);
    release();
    await pending;
    const db = counting(() => session(1));
    await a.lookup('h1', AT, db.load);
    expect(db.loads).toBe(1);
  });

  it('keeps no banned or suspended session, nor one the repository cannot tell about', async () => {
    const { a } = world();
    for (const over of [{ banned: true }, { suspended: true }, { banned: undefined, suspended: undefined }]) {
      const db = counting(() => session(1, 1, over));
      await a.lookup('h', AT, db.load);
      await a.lookup('h', AT, db.load);
      expect(db.loads).toBe(2);
    }
  });

  it('serves a session no longer than its age bound or its token', async () => {
    const { a, advance } = world({ maxEntries: 100, maxAgeMs: 5000, checkEveryMs: 1000 });
    const db = counting(() => session(1));
    await a.lookup('h1', AT, db.load);
    advance(4999);
    await a.lookup('h1', AT, db.load);
    expect(db.loads).toBe(1);
    advance(1);
    await a.lookup('h1', AT, db.load);
    expect(db.loads).toBe(2);

    // The token's expiry is read on the domain's clock, the request's `at`.
    const expiring = counting(() => session(2, 2, { expires_at: '2026-01-01 00:00:01' }));
    await a.lookup('h2', AT, expiring.load);
    await a.lookup('h2', new Date('2026-01-01T00:00:00.999Z'), expiring.load);
    expect(expiring.loads).toBe(1);
    await a.lookup('h2', new Date('2026-01-01T00:00:01Z'), expiring.load);
    expect(expiring.loads).toBe(2);
  });

  it('keeps the most recently used sessions up to its bound', async () => {
    const { a } = world({ maxEntries: 2, maxAgeMs: 60_000, checkEveryMs: 1000 });
    const db = counting(() => session(9));
    await a.lookup('x', AT, db.load);
    await a.lookup('y', AT, db.load);
    await a.lookup('x', AT, db.load);
    await a.lookup('z', AT, db.load);
    expect(a.size).toBe(2);
    await a.lookup('x', AT, db.load);
    expect(db.loads).toBe(3);
    await a.lookup('y', AT, db.load);
    expect(db.loads).toBe(4);
  });

  it('publishes only once the unit of work commits, and not at all when it rolls back', async () => {
    const signal = new InMemoryAuthInvalidation();
    const uow = new InMemoryUnitOfWork();
    const cache = new SessionCache(signal, uow);
    const cursor = (await signal.changedSince(null)).cursor;
    await expect(
      uow.run(async () => {
        await cache.publish(3);
        throw new Error('undone');
      }),
    ).rejects.toThrow('undone');
    expect((await signal.changedSince(cursor)).userIds).toEqual([]);
    await uow.run(async () => {
      await cache.publish(4);
      expect((await signal.changedSince(cursor)).userIds).toEqual([]);
    });
    expect((await signal.changedSince(cursor)).userIds).toEqual([4]);
  });

  it('serves nothing from memory while the signal cannot be asked, and drops what it held', async () => {
    const signal = new InMemoryAuthInvalidation();
    let down = false;
    const flaky = {
      publish: (id: number) => signal.publish(id),
      changedSince: async (cursor: string | null) => {
        if (down) throw new Error('database unavailable');
        return signal.changedSince(cursor);
      },
    };
    let now = 0;
    const cache = new SessionCache(flaky, new InMemoryUnitOfWork(), { maxEntries: 10, maxAgeMs: 60_000, checkEveryMs: 1000 }, () => now);
    const db = counting(() => session(1));
    await cache.lookup('h', AT, db.load);
    down = true;
    now += 1000;
    await cache.lookup('h', AT, db.load);
    await cache.lookup('h', AT, db.load);
    expect(db.loads).toBe(3);
    expect(cache.size).toBe(0);
    down = false;
    await cache.lookup('h', AT, db.load);
    await cache.lookup('h', AT, db.load);
    expect(db.loads).toBe(4);
  });
});
