import { existsSync } from 'node:fs';
import { createConnection } from 'mysql2/promise';
import { mysqlConfigFromUrl } from '@plaza/adapters-mysql';
import { loadConfig, startPlaza } from '@plaza/server';
import { describe, expect, inject, it } from 'vitest';
import { ApiClient } from '../support/client.js';
import { TEST_DIALECT } from '../support/database.js';
import { aUser } from '../support/mothers.js';
import { ownDatabaseEnv } from '../support/server-process.js';

/** The Unix socket of the test server, when it runs on this machine (MySQL runs only). */
async function serverSocket(): Promise<string | null> {
  if (TEST_DIALECT !== 'mysql') return null;
  const base = mysqlConfigFromUrl(inject('mysqlUrl')!);
  const conn = await createConnection({ host: base.host, port: base.port, user: base.user, password: base.password });
  const [[row]] = (await conn.query('SELECT @@socket AS socket')) as unknown as [[{ socket: string | null }]];
  await conn.end();
  return row?.socket && existsSync(row.socket) ? row.socket : null;
}

const socket = await serverSocket();

describe.skipIf(!socket)('DB_SOCKET: MySQL over a Unix socket', () => {
  it('serves, migrates and answers over the socket alone (no host, no port)', async () => {
    const { env, drop } = await ownDatabaseEnv();
    // No host, and a port nothing listens on: only the socket can reach the server.
    const { DB_HOST: _host, DB_PORT: _port, ...rest } = env;
    const config = loadConfig({
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      BCRYPT_COST: '4',
      ...rest,
      DB_PORT: '1',
      DB_SOCKET: socket!,
    });
    expect(config.database).toMatchObject({ kind: 'mysql', socketPath: socket });
    const plaza = await startPlaza(config, { jobs: false }).catch(async (error: unknown) => {
      await drop();
      throw error;
    });
    try {
      const api = new ApiClient(plaza.url);
      const health = await api.get('/health-public.php');
      expect(health.body).toMatchObject({ success: true, database: { reachable: true, dialect: 'mysql' } });
      const user = await aUser(api);
      const me = await api.get('users.php', { token: user.token });
      expect(me.body).toMatchObject({ success: true, username: user.username });
    } finally {
      await plaza.close();
      await drop();
    }
  });
});
