import { describe, expect, it } from 'vitest';
import { RedisAuthInvalidation } from '@plaza/adapters-integrations/redis';
import { authInvalidationContract } from '@plaza/domain/accounts/testing';
import { useTestRedis } from '../support/redis.js';

// The session-change signal's Redis adapter (docs/decisions/0160) under the suite its database adapter
// runs in auth-invalidation.test.ts: two handles, as two processes, on one stream of a fresh prefix.
const redis = useTestRedis();

authInvalidationContract('redis', async () => {
  const prefix = redis.fresh();
  const commands = redis.connections().commands;
  return { signal: new RedisAuthInvalidation(commands, prefix), other: new RedisAuthInvalidation(commands, prefix) };
});

describe('redis: session-change signal while Redis is away', () => {
  it('answers everyone (read sessions from the database) while it fails, and once more after, since publications may be lost', async () => {
    let down = false;
    const real = redis.connections().commands;
    const flaky = new Proxy(real, {
      get(target, name, receiver) {
        const value = Reflect.get(target, name, receiver);
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) => (down ? Promise.reject(new Error('Connection is closed.')) : value.apply(target, args));
      },
    });
    const prefix = redis.fresh();
    const reader = new RedisAuthInvalidation(flaky, prefix);
    const writer = new RedisAuthInvalidation(real, prefix);
    const start = await reader.changedSince(null);
    await writer.publish(5);
    down = true;
    const during = await reader.changedSince(start.cursor);
    expect(during).toEqual({ cursor: start.cursor, userIds: [], everyone: true });
    await writer.publish(6);
    down = false;
    const after = await reader.changedSince(during.cursor);
    expect(after.everyone).toBe(true);
    expect(after.userIds).toEqual([]);
    await writer.publish(7);
    expect(await reader.changedSince(after.cursor)).toMatchObject({ userIds: [7], everyone: false });
  });
});
