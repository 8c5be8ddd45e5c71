import { RedisConnections, RedisFederationKeyValues, RedisRateLimitStore } from '@plaza/adapters-integrations/redis';
import { describe, expect, it } from 'vitest';
import { federationKeyValuesContract } from '@plaza/domain/federation/testing';
import { rateLimitStoreContract } from '@plaza/domain/limits/testing';
import { useTestRedis } from '../support/redis.js';

// The Redis adapters of ports whose database adapters run these suites in foundation.test.ts and
// federation.test.ts (docs/decisions/0160): the same cases, on the Redis of TEST_REDIS_URL.
const redis = useTestRedis();

rateLimitStoreContract('redis', async () => new RedisRateLimitStore(redis.connections().commands, redis.fresh()));
federationKeyValuesContract('redis', async () => new RedisFederationKeyValues(redis.connections().commands, redis.fresh()));

describe('redis: while Redis is away', () => {
  it('counts rate-limit hits in the process instead of failing the request', async () => {
    const away = new RedisConnections('redis://127.0.0.1:1', 'plaza_t_away:', { down: () => {}, up: () => {} });
    try {
      const store = new RedisRateLimitStore(away.commands, away.prefix);
      expect(await store.hit('k', 3600)).toBe(1);
      expect(await store.hit('k', 3600)).toBe(2);
      expect(await store.hit('k', 7200)).toBe(1);
    } finally {
      await away.close();
    }
  });

  it('misses and skips writes instead of failing federation requests', async () => {
    const away = new RedisConnections('redis://127.0.0.1:1', 'plaza_t_away:', { down: () => {}, up: () => {} });
    try {
      const kv = new RedisFederationKeyValues(away.commands, away.prefix);
      expect(await kv.get('a', '2026-01-01 00:00:00')).toBeUndefined();
      await kv.set('a', 1, null);
      await expect(kv.purgeExpired('2026-01-01 00:00:00')).rejects.toThrow();
    } finally {
      await away.close();
    }
  });
});
