import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aUser } from '../support/mothers.js';
import { startTestServer, type TestServer } from '../support/server.js';

/** The value of one series in a Prometheus text answer, e.g. `plaza_queue_depth{queue="mail"}`; null when absent. */
function valueOf(text: string, series: string): number | null {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? null : Number(line.slice(series.length + 1));
}

describe('GET /metrics', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ env: { API_METRICS: 'true' } });
  });
  afterAll(() => t.close());

  const scrape = async () => {
    const res = await fetch(`${t.url}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    return res.text();
  };

  it('counts requests by script, declared operation and status, with their latency', async () => {
    const u = await aUser(t.api);
    await t.api.get(`users.php?id=${u.id}`, { token: u.token });
    await t.api.get(`users.php?id=${u.id}`, { token: u.token });
    await t.api.get('users.php?id=977731', { token: u.token });
    await t.api.get('no-such-script-7731.php');
    await t.api.get('/a/random/path/7731');
    const text = await scrape();
    expect(valueOf(text, 'plaza_http_requests_total{script="auth",operation="POST action=register",status="200"}')).toBe(1);
    expect(valueOf(text, 'plaza_http_requests_total{script="auth",operation="POST",status="200"}')).toBe(1);
    expect(valueOf(text, 'plaza_http_requests_total{script="users",operation="GET has=id",status="200"}')).toBe(2);
    expect(valueOf(text, 'plaza_http_requests_total{script="users",operation="GET has=id",status="404"}')).toBe(1);
    expect(valueOf(text, 'plaza_http_request_duration_seconds_count{script="users",operation="GET has=id"}')).toBe(3);
    expect(valueOf(text, 'plaza_http_request_duration_seconds_bucket{le="+Inf",script="users",operation="GET has=id"}')).toBe(3);
    expect(valueOf(text, 'plaza_http_requests_total{script="(other)",operation="(none)",status="404"}')).toBe(2);
    // Label values come from the declarations: no id, no path a client chose. Only the series names
    // are searched: a sample's value (a latency sum) may contain the digits by chance.
    const series = text.split('\n').map((line) => line.slice(0, line.lastIndexOf(' ')));
    expect(series.join('\n')).not.toContain('7731');
  });

  it('shows the pool, failed statements, the event loop and the queues', async () => {
    const before = valueOf(await scrape(), 'plaza_db_statement_errors_total') ?? 0;
    await expect(sql`select * from no_such_table`.execute(t.plaza.database.db)).rejects.toThrow();
    const u = await aUser(t.api);
    const at = '2026-06-01 10:00:00';
    await t.plaza.database.db
      .insertInto('push_outbox')
      .values({ user_id: u.id, provider: 'ntfy', payload: '{}', attempts: 0, next_attempt_at: at, last_error: '', created_at: at })
      .execute();
    const text = await scrape();
    expect(valueOf(text, 'plaza_db_statement_errors_total')).toBe(before + 1);
    for (const state of ['in_use', 'free', 'queued']) expect(valueOf(text, `plaza_db_pool_connections{state="${state}"}`)).not.toBeNull();
    expect(valueOf(text, 'plaza_db_pool_connections{state="queued"}')).toBe(0);
    expect(valueOf(text, 'nodejs_eventloop_lag_p99_seconds')).not.toBeNull();
    expect(valueOf(text, 'plaza_queue_depth{queue="push"}')).toBe(1);
    for (const queue of ['mail', 'federation', 'timeline_fanout']) expect(valueOf(text, `plaza_queue_depth{queue="${queue}"}`)).toBe(0);
  });

  it('counts job runs by job', async () => {
    expect(valueOf(await scrape(), 'plaza_job_runs_total{job="purge-rate-limit-counters"}')).toBe(0);
    await t.runJob('purge-rate-limit-counters');
    const text = await scrape();
    expect(valueOf(text, 'plaza_job_runs_total{job="purge-rate-limit-counters"}')).toBe(1);
    expect(valueOf(text, 'plaza_job_failures_total{job="purge-rate-limit-counters"}')).toBe(0);
  });

  it('answers only GET and HEAD', async () => {
    const res = await fetch(`${t.url}/metrics`, { method: 'POST' });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, HEAD');
  });
});

describe('GET /metrics is off by default', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(() => t.close());

  it('answers 404', async () => {
    const res = await t.api.get('/metrics');
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('unknown_endpoint');
  });
});

describe('GET /metrics with API_METRICS_TOKEN', () => {
  let t: TestServer;
  const token = 'a-metrics-token-of-some-length';
  beforeAll(async () => {
    t = await startTestServer({ env: { API_METRICS_TOKEN: token, API_RATE_LIMITS: 'default=3' } });
  });
  afterAll(() => t.close());

  it('refuses a missing or wrong token with 401, counting the refusals by address', async () => {
    const none = await t.api.get('/metrics');
    expect(none.status).toBe(401);
    expect(none.body).toMatchObject({ success: false, code: 'metrics_token_required' });
    const wrong = await t.api.get('/metrics', { token: `${token}x` });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('x-ratelimit-remaining')).toBe('1');
    const right = await fetch(`${t.url}/metrics`, { headers: { Authorization: `Bearer ${token}` } });
    expect(right.status).toBe(200);
    expect(await right.text()).toContain('plaza_http_requests_total');
  });
});
