import { migrateToLatest, mysqlConfigFromUrl, openDatabase } from '@plaza/adapters-mysql';
import { loadConfig, plazaMigrations, startPlaza, type RunningPlaza } from '@plaza/server';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ApiClient } from '../support/client.js';
import { openTestDatabase, TEST_DIALECT, type TestDatabase } from '../support/database.js';
import { TcpRelay } from '../support/tcp-relay.js';

describe.skipIf(TEST_DIALECT !== 'mysql')('a database outage (MySQL only: SQLite is in-process)', () => {
  let database: TestDatabase;
  let relay: TcpRelay;
  let plaza: RunningPlaza;
  let api: ApiClient;

  beforeAll(async () => {
    database = await openTestDatabase();
    const base = mysqlConfigFromUrl(inject('mysqlUrl')!);
    const name = (await database.db.selectNoFrom((eb) => eb.fn<string>('database', []).as('db')).executeTakeFirstOrThrow()).db;
    relay = new TcpRelay(base.host, base.port);
    await relay.start();
    const handle = openDatabase({ ...base, host: '127.0.0.1', port: relay.port, database: name, connectionLimit: 2 });
    await migrateToLatest(handle.db, handle.dialect, plazaMigrations());
    const config = loadConfig({
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'silent',
      API_DATA_DIR: '/tmp/plaza-test-data',
      BCRYPT_COST: '4',
    });
    plaza = await startPlaza(config, { database: handle, jobs: false });
    api = new ApiClient(plaza.url);
  });
  afterAll(async () => {
    await plaza?.close();
    await database?.drop();
  });

  it('answers 503 JSON while the database is down, and recovers without a restart', async () => {
    expect(
      (await api.post('auth.php?action=register', { username: 'before_outage', email: 'b@o.test', password: 'long enough' })).status,
    ).toBe(200);
    const port = relay.port;
    await relay.cut();

    const down = await api.post('auth.php', { username: 'before_outage', password: 'long enough' });
    expect(down.status).toBe(503);
    expect(down.body).toMatchObject({ success: false, code: 'database_unavailable' });
    const health = await api.get('/health-public.php');
    expect(health.status).toBe(503);
    expect(health.body).toMatchObject({ status: 'degraded', database: { reachable: false } });
    // The probes: alive (a restart would not help), not ready (send traffic elsewhere).
    expect((await api.get('/health/live')).status).toBe(200);
    const ready = await api.get('/health/ready');
    expect(ready.status).toBe(503);
    expect(ready.body).toMatchObject({ success: false, code: 'database_unavailable', database: { reachable: false } });

    await relay.start(port);
    let back = await api.post('auth.php', { username: 'before_outage', password: 'long enough' });
    // The pool may hand out one more dead connection before it notices; a second try must work.
    if (back.status !== 200) back = await api.post('auth.php', { username: 'before_outage', password: 'long enough' });
    expect(back.status).toBe(200);
    expect(back.body.success).toBe(true);
    expect((await api.get('/health-public.php')).status).toBe(200);
    expect((await api.get('/health/ready')).status).toBe(200);
  });
});
