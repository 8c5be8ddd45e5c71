import { randomBytes } from 'node:crypto';
import { RedisConnections } from '@plaza/adapters-integrations/redis';
import { afterAll, beforeAll } from 'vitest';

/** The Redis the Redis adapters are tested on: TEST_REDIS_URL, else the machine's shared one. */
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

const quiet = { down: () => {}, up: () => {} };

/**
 * Redis connections for one test file, every key under a prefix of its own (`plaza_t:<random>:`), so
 * files and runs sharing one server never see each other's keys; the keys are deleted after the file.
 * `fresh()` gives a further prefix below it, for suites that assume an empty store.
 */
export function useTestRedis(url = TEST_REDIS_URL): { connections: () => RedisConnections; fresh: () => string } {
  const base = `plaza_t:${Date.now().toString(36)}_${randomBytes(4).toString('hex')}:`;
  let connections: RedisConnections | undefined;
  let n = 0;
  const get = () => (connections ??= new RedisConnections(url, base, quiet));
  beforeAll(async () => {
    if (!(await get().waitReady(5_000))) throw new Error(`no Redis answers at ${url} (set TEST_REDIS_URL)`);
  });
  afterAll(async () => {
    if (!connections) return;
    const redis = connections.commands;
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${base}*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length) await redis.unlink(...keys);
    } while (cursor !== '0');
    await connections.close();
  });
  return { connections: get, fresh: () => `${base}${++n}:` };
}
