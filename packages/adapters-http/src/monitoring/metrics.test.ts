import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { op } from '../http/operation.js';
import { operationLabel, PlazaMetrics } from './metrics.js';

const operation = (select: Parameters<typeof op>[0]['select'], method: 'GET' | 'POST' = 'GET') =>
  op({ method, select, auth: 'none', summary: 'x', response: z.object({}), handle: async () => ({}) });

describe('metrics', () => {
  it('name an operation by its method and declared selector only', () => {
    expect(operationLabel(operation(undefined, 'POST'))).toBe('POST');
    expect(operationLabel(operation({ action: 'login' }, 'POST'))).toBe('POST action=login');
    expect(operationLabel(operation({ path: ':id/members', has: ['page', 'q'] }))).toBe('GET path=:id/members has=page,q');
  });

  it("count a job's runs and failures, passing its failure on", async () => {
    const metrics = new PlazaMetrics();
    let fail = false;
    const run = metrics.jobs.observe('sweep', async () => {
      if (fail) throw new Error('database gone');
      return 'done';
    });
    expect(await run()).toBe('done');
    fail = true;
    await expect(run()).rejects.toThrow('database gone');
    const text = await metrics.render();
    expect(text).toContain('plaza_job_runs_total{job="sweep"} 2');
    expect(text).toContain('plaza_job_failures_total{job="sweep"} 1');
    expect(text).toContain('plaza_job_duration_seconds_count{job="sweep"} 2');
  });

  it("show BullMQ's counts by state when there is a queue, and none on timers or with Redis away (docs/decisions/0215)", async () => {
    const pool = () => ({ inUse: 0, free: 1, queued: 0 });
    let counts: Record<string, number> | null | 'down' = { waiting: 2, active: 1, delayed: 4, failed: 3 };
    const metrics = new PlazaMetrics();
    metrics.watch({
      pool,
      statementErrors: () => 0,
      bullmqCounts: async () => {
        if (counts === 'down') throw new Error('Redis unreachable');
        return counts;
      },
    });
    const text = await metrics.render();
    for (const [state, n] of Object.entries({ waiting: 2, active: 1, delayed: 4, failed: 3 }))
      expect(text).toContain(`plaza_bullmq_jobs{queue="jobs",state="${state}"} ${n}`);
    counts = null;
    expect(await metrics.render()).not.toContain('plaza_bullmq_jobs{');
    counts = 'down';
    const down = await metrics.render();
    expect(down).not.toContain('plaza_bullmq_jobs{');
    expect(down).toContain('plaza_db_pool_connections');
  });

  it('bind one series per operation, counting each status apart', async () => {
    const metrics = new PlazaMetrics();
    const declared = operation({ action: 'react' }, 'POST');
    const series = metrics.requests.ofDeclared('posts', declared);
    expect(metrics.requests.ofDeclared('posts', declared)).toBe(series);
    series.observe(200, 0.004);
    series.observe(200, 0.02);
    series.observe(429, 0.001);
    const text = await metrics.render();
    expect(text).toContain('plaza_http_requests_total{script="posts",operation="POST action=react",status="200"} 2');
    expect(text).toContain('plaza_http_requests_total{script="posts",operation="POST action=react",status="429"} 1');
    expect(text).toContain('plaza_http_request_duration_seconds_bucket{le="0.005",script="posts",operation="POST action=react"} 2');
  });
});
