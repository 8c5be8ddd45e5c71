import { Writable } from 'node:stream';
import { createLogger } from '@plaza/adapters-http';
import { loadConfig, startPlaza } from '@plaza/server';
import { describe, expect, it } from 'vitest';
import { ApiClient } from '../support/client.js';
import { ownDatabaseEnv } from '../support/server-process.js';
import { aPost, aUser } from '../support/mothers.js';

/**
 * Stopping under load (what SIGINT and SIGTERM do: main.ts calls `close`) answers no request with a
 * 500: requests in flight finish, and the database closes only after the last handler has returned,
 * including handlers whose client has already gone (their connection closed, so the HTTP server
 * alone would count them done). Here Plaza opens its own database, as in production, so that `close`
 * really closes it.
 */
describe('graceful shutdown', () => {
  it('under load, answers no 500 and logs no failure: the database outlives every handler', async () => {
    const { env, drop } = await ownDatabaseEnv();
    const errors: string[] = [];
    const sink = new Writable({
      write(chunk, _enc, done) {
        for (const line of String(chunk).split('\n').filter(Boolean)) if (JSON.parse(line).level >= 40) errors.push(line);
        done();
      },
    });
    // A costly bcrypt keeps logins in flight long after their clients have given up.
    const config = loadConfig({
      PORT: '0',
      HOST: '127.0.0.1',
      BCRYPT_COST: '11',
      LOG_LEVEL: 'warn',
      API_RATE_LIMITS: 'auth=100000,posts=100000,reads=100000',
      ...env,
    });
    const plaza = await startPlaza(config, { jobs: false, logger: createLogger({ level: 'warn', destination: sink }) });
    try {
      const api = new ApiClient(plaza.url);
      const user = await aUser(api, { password: 'a long enough password' });
      for (let i = 0; i < 5; i++) await aPost(api, user, { content: `post ${i}` });

      const statuses: number[] = [];
      let stopped = false;
      const feedLoop = async () => {
        while (!stopped) {
          try {
            const res = await fetch(`${plaza.url}/api/v1/posts.php`, { headers: { authorization: `Bearer ${user.token}` } });
            statuses.push(res.status);
            await res.arrayBuffer();
          } catch {
            return; // refused or cut: the server has stopped listening
          }
        }
      };
      // Logins whose clients hang up after 20 ms, while bcrypt still runs for them.
      const abandonedLogins = Array.from({ length: 8 }, async () => {
        const controller = new AbortController();
        setTimeout(() => controller.abort(), 20);
        await fetch(`${plaza.url}/api/v1/auth.php`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ username: user.username, password: 'a long enough password' }),
          signal: controller.signal,
        }).catch(() => {});
      });
      const loops = Array.from({ length: 8 }, feedLoop);
      await new Promise((r) => setTimeout(r, 60));
      await plaza.close();
      stopped = true;
      await Promise.all([...loops, ...abandonedLogins]);
      // Time for an abandoned login to reach its database write, had `close` not waited for it.
      await new Promise((r) => setTimeout(r, 1500));

      expect(statuses.length).toBeGreaterThan(0);
      expect(statuses.filter((s) => s >= 500)).toEqual([]);
      expect(errors).toEqual([]);
    } finally {
      await plaza.close();
      await drop();
    }
  });
});
