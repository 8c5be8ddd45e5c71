import { Accounts, loadConfig, resolve, startPlaza, type RunningPlaza } from '@plaza/server';
import { RATE_LIMIT_GROUPS } from '@plaza/domain';
import { SanctionRepository, SuspensionRepository } from '@plaza/domain/moderation';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../support/client.js';
import { openTestDatabase, type TestDatabase } from '../support/database.js';
import { aUser, type TestUser } from '../support/mothers.js';

/**
 * Authentication without a statement (docs/decisions/0150): two instances of Plaza over one database,
 * each with its own session cache. A change made through one is refused there at once, and by the
 * other once its check of the signal, at most a second old, has run.
 */
let database: TestDatabase;
let one: RunningPlaza;
let two: RunningPlaza;
let api1: ApiClient;
let api2: ApiClient;

const SIGNAL_PERIOD_MS = 1000;
const pastOneCheck = () => new Promise((resolve) => setTimeout(resolve, SIGNAL_PERIOD_MS + 50));

async function instance(): Promise<RunningPlaza> {
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'error',
    BCRYPT_COST: '4',
    API_DATA_DIR: '/tmp/plaza-test-data',
    API_PUBLIC_URL: 'http://plaza.test',
    API_UPLOADS_PATH: '/tmp/plaza-test-uploads-sessions',
    API_RATE_LIMITS: RATE_LIMIT_GROUPS.map((g) => `${g}=100000`).join(','),
    API_LOGIN_ACCOUNT_LIMIT: '100000',
  });
  return startPlaza(config, { database, jobs: false });
}

beforeAll(async () => {
  database = await openTestDatabase();
  // Both instances share the handle (SQLite in memory has only one): each has its own container, and
  // so its own cache; what one tells the other goes through the database's signal rows.
  one = await instance();
  two = await instance();
  api1 = new ApiClient(one.url);
  api2 = new ApiClient(two.url);
});
afterAll(async () => {
  await one?.close();
  await two?.close();
  await database?.drop();
});

const hits = (plaza: RunningPlaza) => resolve(plaza.container, Accounts.Sessions).stats.hits;

/** Signs in on the first instance and has the second one cache the session. */
async function cachedOnBoth(): Promise<TestUser> {
  const u = await aUser(api1);
  for (const api of [api1, api2]) expect((await api.get('users.php', { token: u.token })).status).toBe(200);
  const before = hits(two);
  expect((await api2.get('users.php', { token: u.token })).status).toBe(200);
  expect(hits(two)).toBe(before + 1);
  return u;
}

describe('sessions cached by two instances over one database', () => {
  it('serves a known token from memory: the token lookup is not run again', async () => {
    const u = await aUser(api1);
    expect((await api1.get('users.php', { token: u.token })).status).toBe(200);
    const before = database.queries.executed;
    const cachedBefore = hits(one);
    expect((await api1.get('users.php', { token: u.token })).status).toBe(200);
    expect(hits(one)).toBe(cachedBefore + 1);
    // users.php's own profile read, and nothing for the token.
    expect(database.queries.executed - before).toBe(1);
  });

  it('a revoked token is refused at once where it was revoked, and by the other instance within a second', async () => {
    const u = await cachedOnBoth();
    expect((await api1.post('auth.php?action=revoke', {}, { token: u.token })).status).toBe(200);
    expect((await api1.get('users.php', { token: u.token })).status).toBe(401);
    await pastOneCheck();
    const res = await api2.get('users.php', { token: u.token });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('invalid_token');
  });

  it('a banned account is refused by the other instance within a second', async () => {
    const u = await cachedOnBoth();
    await resolve(one.container, SanctionRepository).addBan({
      user_id: u.id,
      banned_by: null,
      reason: 'test ban',
      is_permanent: true,
      expires_at: null,
      created_at: '2026-01-01 00:00:00',
    });
    expect((await api1.get('users.php', { token: u.token })).body.code).toBe('banned');
    await pastOneCheck();
    const res = await api2.get('users.php', { token: u.token });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('banned');
  });

  it('a suspended account is refused by the other instance within a second, and served again once lifted', async () => {
    const u = await cachedOnBoth();
    const suspensions = resolve(one.container, SuspensionRepository);
    expect(await suspensions.suspend({ user_id: u.id, suspended_by: null, reason: 'test', created_at: '2026-01-01 00:00:00' })).toBe(true);
    expect((await api1.get('users.php', { token: u.token })).body.code).toBe('suspended');
    await pastOneCheck();
    expect((await api2.get('users.php', { token: u.token })).body.code).toBe('suspended');
    expect(await suspensions.lift(u.id)).not.toBeNull();
    expect((await api1.get('users.php', { token: u.token })).status).toBe(200);
    await pastOneCheck();
    expect((await api2.get('users.php', { token: u.token })).status).toBe(200);
  });

  it('a password change ends the other sessions on both instances', async () => {
    const u = await cachedOnBoth();
    const second = (await api1.post('auth.php', { username: u.username, password: u.password })).body.token as string;
    for (const api of [api1, api2]) expect((await api.get('users.php', { token: second })).status).toBe(200);
    const changed = await api1.post(
      'change_password.php',
      { current_password: u.password, new_password: 'another long password' },
      { token: u.token },
    );
    expect(changed.status).toBe(200);
    expect((await api1.get('users.php', { token: second })).status).toBe(401);
    await pastOneCheck();
    expect((await api2.get('users.php', { token: second })).status).toBe(401);
  });

  it('answers a post with the card as edited just before, on the same instance', async () => {
    const u = await cachedOnBoth();
    expect((await api1.put('users.php', { militant_badge: 'Solidarity' }, { token: u.token })).status).toBe(200);
    const created = await api1.post('posts.php', { content: 'after the badge' }, { token: u.token });
    expect(created.status).toBe(200);
    expect(created.body.data).toMatchObject({ user_id: u.id, militant_badge: 'Solidarity' });
    await pastOneCheck();
    const elsewhere = await api2.post('posts.php', { content: 'from the other instance' }, { token: u.token });
    expect(elsewhere.body.data).toMatchObject({ user_id: u.id, militant_badge: 'Solidarity' });
  });
});
