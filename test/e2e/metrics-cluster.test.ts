import { request } from 'node:http';
import { RATE_LIMIT_GROUPS } from '@plaza/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer, ownDatabaseEnv, type ServerProcess, startServerProcess } from '../support/server-process.js';

/**
 * GET /metrics with API_WORKERS=2 (docs/decisions/0103), on the built server: whichever worker a scrape
 * reaches, it shows the whole instance, gathered by the primary.
 */

let server: ServerProcess;
let drop: () => Promise<void> = async () => {};
let url: string;
const TOKEN = 'metrics-token-for-the-cluster-test';

const json = (lines: string[]) => lines.filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as Record<string, unknown>);
/** The URL each worker serves, from its "Plaza ready" line. */
const urlsOf = (lines: string[]) => json(lines).flatMap((l) => (l.msg === 'Plaza ready' ? [l.url as string] : []));
const pidOf = (lines: string[], id: string) => json(lines).find((l) => l.msg === 'request' && l.req_id === id)?.pid;

/** One request on a connection of its own: the primary deals connections to the workers in turn. */
function get(path: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}${path}`, { agent: false, headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode!, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** The sum of every series of `name` whose labels include all of `labels`. */
function sumOf(text: string, name: string, labels: string[]): number {
  return text
    .split('\n')
    .filter((l) => l.startsWith(`${name}{`) && labels.every((label) => l.includes(label)))
    .reduce((sum, l) => sum + Number(l.slice(l.lastIndexOf(' ') + 1)), 0);
}

beforeAll(async () => {
  await buildServer();
  const own = await ownDatabaseEnv();
  drop = own.drop;
  server = startServerProcess({
    ...own.env,
    API_WORKERS: '2',
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'info',
    BCRYPT_COST: '4',
    API_METRICS_TOKEN: TOKEN,
    API_RATE_LIMITS: RATE_LIMIT_GROUPS.map((g) => `${g}=100000`).join(','),
  });
  const urls = await server.waitFor('two workers serving', (l) => urlsOf(l).length >= 2 && urlsOf(l), 60_000);
  url = urls[0];
}, 120_000);

afterAll(async () => {
  if (server && server.child.exitCode === null && server.child.signalCode === null) {
    server.child.kill('SIGTERM');
    await server.exited;
  }
  await drop();
});

describe('/metrics with API_WORKERS=2', () => {
  it("shows every worker's requests in each scrape, whichever worker answers it", async () => {
    const ids = Array.from({ length: 8 }, (_, i) => `metrics-spread-${i}`);
    for (const id of ids) expect((await get('/api/v1/settings.php', { 'x-request-id': id })).status).toBe(200);
    const pids = await server.waitFor('the access log', (lines) => {
      const found = ids.map((id) => pidOf(lines, id));
      return found.every((p) => p !== undefined) && found;
    });
    expect(new Set(pids).size).toBe(2);

    for (let i = 0; i < 4; i++) {
      const scrape = await get('/metrics', { authorization: `Bearer ${TOKEN}` });
      expect(scrape.status).toBe(200);
      expect(sumOf(scrape.body, 'plaza_http_requests_total', ['script="settings"', 'status="200"'])).toBe(8);
      // The queues are the instance's: given once, by the worker with the jobs.
      expect(scrape.body.match(/^plaza_queue_depth\{queue="mail"\} 0$/gm)).toHaveLength(1);
      expect(scrape.body).toMatch(/^plaza_db_pool_connections\{state="free"\} \d+$/m);
      expect(scrape.body).toMatch(/^nodejs_eventloop_lag_p99_seconds /m);
    }
    expect((await get('/metrics')).status).toBe(401);
  });
});
