import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

describe('loadConfig', () => {
  it('defaults to the embedded SQLite database under ./data', () => {
    const c = loadConfig({});
    expect(c.database.kind).toBe('sqlite');
    expect(c.port).toBe(8080);
    expect(c.rateLimits.auth).toBe(50);
    expect(c.rateLimitStore).toBe('memory');
    expect(c.mobileAppMarker).toBe('militant-flutter-v1');
    expect(c.logLevel).toBe('info');
  });

  it('logs at debug level with API_DEBUG unless LOG_LEVEL says otherwise', () => {
    expect(loadConfig({ API_DEBUG: 'true' }).logLevel).toBe('debug');
    expect(loadConfig({ API_DEBUG: 'true', LOG_LEVEL: 'warn' }).logLevel).toBe('warn');
  });

  it('switches to MySQL on DB_HOST or API_DB_HOST, API_ names first', () => {
    const c = loadConfig({ DB_HOST: 'db', DB_NAME: 'social', DB_USER: 'u', DB_PASSWORD: 'p', API_DB_NAME: 'api_social' });
    expect(c.database).toMatchObject({ kind: 'mysql', host: 'db', database: 'api_social', user: 'u', password: 'p', port: 3306 });
    expect(c.rateLimitStore).toBe('database');
  });

  it('applies rate-limit overrides', () => {
    expect(loadConfig({ API_RATE_LIMITS: 'posts=500, auth=10' }).rateLimits).toMatchObject({ posts: 500, auth: 10, comments: 150 });
  });

  it.each([
    ['PORT', 'eighty', 'PORT'],
    ['API_TIMEZONE', 'Mars/Olympus', 'API_TIMEZONE'],
    ['API_REQUIRE_HTTPS', 'maybe', 'API_REQUIRE_HTTPS'],
    ['API_RATE_LIMITS', 'posts=-1', 'API_RATE_LIMITS'],
    ['API_RATE_LIMITS', 'nonsense=3', 'API_RATE_LIMITS'],
    ['API_PUBLIC_URL', 'not a url', 'API_PUBLIC_URL'],
  ])('names the variable when %s=%s is invalid', (name, value, expected) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(`^Invalid configuration: ${expected}`));
  });
});
