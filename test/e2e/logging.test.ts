import { Writable } from 'node:stream';
import { createLogger } from '@plaza/adapters-http';
import { loadConfig, startPlaza, type RunningPlaza } from '@plaza/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../support/client.js';
import { openTestDatabase, type TestDatabase } from '../support/database.js';
import { aUser } from '../support/mothers.js';

const lines: string[] = [];
let plaza: RunningPlaza;
let database: TestDatabase;
let api: ApiClient;

beforeAll(async () => {
  database = await openTestDatabase();
  const sink = new Writable({
    write(chunk, _enc, done) {
      lines.push(...String(chunk).split('\n').filter(Boolean));
      done();
    },
  });
  const config = loadConfig({ PORT: '0', HOST: '127.0.0.1', BCRYPT_COST: '4', API_DATA_DIR: '/tmp/plaza-test-data', LOG_LEVEL: 'info' });
  plaza = await startPlaza(config, { database, jobs: false, logger: createLogger({ level: 'info', destination: sink }) });
  api = new ApiClient(plaza.url);
});
afterAll(async () => {
  await plaza.close();
  await database.drop();
});

describe('logs', () => {
  it('write one JSON line per request with its id, and never a token or password', async () => {
    const u = await aUser(api, { password: 'very secret password' });
    await api.get(`users.php?token=${u.token}`, { token: u.token });
    await api.post('auth.php?action=refresh', { token: u.token });
    const all = lines.join('\n');
    expect(all).not.toContain(u.token);
    expect(all).not.toContain('very secret password');
    const requests = lines.map((l) => JSON.parse(l)).filter((l) => l.msg === 'request');
    expect(requests.length).toBeGreaterThanOrEqual(4);
    expect(requests.every((r) => typeof r.req_id === 'string' && typeof r.status === 'number')).toBe(true);
    expect(requests.some((r) => String(r.url).includes('token=[redacted]'))).toBe(true);
  });

  it('carry the client address as the trusted-proxy rule resolved it, and the user agent cut to 200 characters', async () => {
    // Loopback is a trusted proxy by default: the nearest untrusted X-Forwarded-For hop is the client.
    await api.get('settings.php', {
      headers: {
        'X-Request-Id': 'log-client-1',
        'X-Forwarded-For': '203.0.113.9, 127.0.0.1',
        'User-Agent': `militant-flutter ${'x'.repeat(500)}`,
      },
    });
    await api.get('settings.php', { headers: { 'X-Request-Id': 'log-client-2', 'User-Agent': 'curl/8.0' } });
    const byId = (id: string) => lines.map((l) => JSON.parse(l)).find((l) => l.msg === 'request' && l.req_id === id);
    // The lines are written asynchronously: wait for the second one.
    for (let i = 0; i < 100 && !byId('log-client-2'); i++) await new Promise((r) => setTimeout(r, 20));
    const proxied = byId('log-client-1');
    expect(proxied.ip).toBe('203.0.113.9');
    expect(proxied.user_agent).toHaveLength(200);
    expect(proxied.user_agent.startsWith('militant-flutter xxx')).toBe(true);
    const direct = byId('log-client-2');
    expect(direct.ip).toBe('127.0.0.1');
    expect(direct.user_agent).toBe('curl/8.0');
  });
});

describe('graceful shutdown', () => {
  it('finishes a request in flight, then refuses new connections', async () => {
    const db2 = await openTestDatabase();
    const config = loadConfig({
      PORT: '0',
      HOST: '127.0.0.1',
      BCRYPT_COST: '12',
      API_DATA_DIR: '/tmp/plaza-test-data',
      LOG_LEVEL: 'silent',
    });
    const p = await startPlaza(config, { database: db2, jobs: false });
    const client = new ApiClient(p.url);
    // A register at bcrypt cost 12 takes a few hundred milliseconds: long enough to close meanwhile.
    const inFlight = client.post('auth.php?action=register', {
      username: 'slowpoke',
      email: 'slow@example.test',
      password: 'long enough pw',
    });
    await new Promise((r) => setTimeout(r, 50));
    await p.close();
    expect((await inFlight).status).toBe(200);
    await expect(fetch(`${p.url}/api/v1/settings.php`)).rejects.toThrow();
    await db2.drop();
  });
});
