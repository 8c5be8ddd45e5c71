import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.js';

/**
 * /health/live and /health/ready (docs/decisions/0101) on the composed server; the `starting` phase
 * (database awaited) is in startup-waits.test.ts, the database outage in database-outage.test.ts.
 */

// Low limits: a probe that counted would soon be refused (the limits' own test is below).
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ env: { API_RATE_LIMITS: 'reads=2,default=2' } });
});
afterAll(async () => {
  await server?.close();
});

/** Sends `head` (an unfinished request) on a connection of its own; `finish()` sends the blank line that ends it and resolves with the raw answer. */
async function unfinishedRequest(url: string, head: string): Promise<{ finish(): Promise<string> }> {
  const { hostname, port } = new URL(url);
  const socket: Socket = connect(Number(port), hostname);
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  let answer = '';
  socket.on('data', (chunk) => (answer += chunk.toString('utf8')));
  const ended = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  socket.write(head);
  // The server has read the first bytes: the connection is busy with a request, not idle.
  await new Promise((r) => setTimeout(r, 100));
  return {
    async finish() {
      socket.write('\r\n');
      await ended;
      return answer;
    },
  };
}

describe('health probes', () => {
  it('/health/live and /health/ready answer 200 JSON once the server serves; /health-public.php is unchanged', async () => {
    const live = await server.api.get('/health/live');
    expect(live.status).toBe(200);
    expect(live.body).toEqual({ success: true, status: 'live' });
    expect(live.headers.get('cache-control')).toBe('no-store');

    const ready = await server.api.get('/health/ready?verbose=1');
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({ success: true, status: 'ready', database: { reachable: true, dialect: server.database.dialect } });
    expect(ready.headers.get('content-type')).toMatch(/^application\/json/);

    const legacy = await server.api.get('/health-public.php');
    expect(legacy.status).toBe(200);
    expect(Object.keys(legacy.body).sort()).toEqual(['database', 'status', 'success', 'timestamp']);
    expect(legacy.body).toMatchObject({ success: true, status: 'ok' });
  });

  it('answers HEAD without a body, and refuses other methods with 405 naming the allowed ones', async () => {
    const head = await fetch(`${server.url}/health/ready`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    const post = await server.api.post('/health/live', {});
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
    expect(post.body).toMatchObject({ success: false, code: 'method_not_allowed' });
  });

  it('is never rate-limited: probes do not count against the prober’s address', async () => {
    for (let i = 0; i < 6; i++) expect((await server.api.get('/health/ready')).status).toBe(200);
    // The address still has its whole allowance for the API.
    const first = await server.api.get('index.php');
    expect(first.headers.get('x-ratelimit-remaining')).toBe('1');
  });

  // Last: it shuts the server down.
  it('readiness answers 503 shutting_down while the server drains, liveness still 200', async () => {
    const draining = server;
    // Two requests whose heads arrived before the shutdown began; they end once it is under way.
    const ready = await unfinishedRequest(draining.url, 'GET /health/ready HTTP/1.1\r\nHost: plaza.test\r\n');
    const live = await unfinishedRequest(draining.url, 'GET /health/live HTTP/1.1\r\nHost: plaza.test\r\n');
    const closing = draining.plaza.close();
    const [readyAnswer, liveAnswer] = await Promise.all([ready.finish(), live.finish()]);
    await closing;

    expect(readyAnswer).toMatch(/^HTTP\/1\.1 503 /);
    expect(readyAnswer).toMatch(/\r\nConnection: close\r\n/i);
    expect(JSON.parse(readyAnswer.slice(readyAnswer.indexOf('\r\n\r\n') + 4))).toMatchObject({ success: false, code: 'shutting_down' });
    expect(liveAnswer).toMatch(/^HTTP\/1\.1 200 /);
  });
});
