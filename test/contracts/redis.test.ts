import { RedisFederationKeyValues, RedisRateLimitStore } from '@plaza/adapters-integrations/redis';
import { federationKeyValuesContract } from '@plaza/domain/federation/testing';
import { rateLimitStoreContract } from '@plaza/domain/limits/testing';
import { useTestRedis } from '../support/redis.js';

// The Redis adapters of ports whose database adapters run these suites in foundation.test.ts and
// federation.test.ts (docs/decisions/0160): the same cases, on the Redis of TEST_REDIS_URL.
const redis = useTestRedis();

rateLimitStoreContract('redis', async () => new RedisRateLimitStore(redis.connections().commands, redis.fresh()));
federationKeyValuesContract('redis', async () => new RedisFederationKeyValues(redis.connections().commands, redis.fresh()));
