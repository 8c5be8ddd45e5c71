import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

describe('REDIS_URL and the job pool (docs/decisions/0160)', () => {
  it('leaves everything to the database when unset: the embedded default', () => {
    const c = loadConfig({});
    expect(c.redis).toBeNull();
    expect(c.rateLimitStore).toBe('memory');
    expect(loadConfig({ DB_HOST: 'db' }).rateLimitStore).toBe('database');
  });

  it('puts rate limits on Redis when set, unless API_RATE_LIMIT_STORE says otherwise', () => {
    const c = loadConfig({ REDIS_URL: 'redis://:secret@cache.internal:6380/2', JOB_CONCURRENCY: '8' });
    expect(c.redis).toEqual({
      url: 'redis://:secret@cache.internal:6380/2',
      prefix: 'plaza:',
      jobs: { concurrency: 8, attempts: 5, backoffMs: 5000 },
    });
    expect(c.rateLimitStore).toBe('redis');
    expect(loadConfig({ REDIS_URL: 'rediss://cache', API_RATE_LIMIT_STORE: 'database' }).rateLimitStore).toBe('database');
  });

  it.each([
    ['REDIS_URL', 'http://cache:6379', 'redis://'],
    ['REDIS_URL', 'cache:6379', 'redis://'],
    ['REDIS_URL', 'redis://cache/queue', 'database number'],
    ['REDIS_PREFIX', 'a b', 'letters'],
    ['JOB_CONCURRENCY', '0', ''],
    ['JOB_ATTEMPTS', 'many', 'whole number'],
  ])('refuses %s=%s with one line naming it', (name, value, words) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(`^Invalid configuration: ${name} .*${words}`));
  });
});
