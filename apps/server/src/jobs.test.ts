import { describe, expect, it } from 'vitest';
import { repeat } from './jobs.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('repeat (the periodic job runner)', () => {
  it('never overlaps a slow run with the next: each starts a period after the previous one ended', async () => {
    const periodMs = 10;
    const runMs = 60;
    let running = 0;
    let mostAtOnce = 0;
    const runs: { start: number; end: number }[] = [];
    const stop = repeat(periodMs, async () => {
      const start = performance.now();
      running += 1;
      mostAtOnce = Math.max(mostAtOnce, running);
      await sleep(runMs);
      running -= 1;
      runs.push({ start, end: performance.now() });
    });
    await sleep(400);
    await stop();

    // setInterval would have started a run every 10 ms, six at a time.
    expect(runs.length).toBeGreaterThanOrEqual(3);
    expect(mostAtOnce).toBe(1);
    for (let i = 1; i < runs.length; i++) expect(runs[i].start).toBeGreaterThanOrEqual(runs[i - 1].end + periodMs - 2);
  });

  it('keeps its schedule after a failed run', async () => {
    let calls = 0;
    const stop = repeat(5, async () => {
      calls += 1;
      throw new Error('boom');
    });
    await sleep(100);
    await stop();
    expect(calls).toBeGreaterThanOrEqual(3);
  });

  it('stops: no run starts after, and stopping waits for the run in progress', async () => {
    let calls = 0;
    let finished = false;
    const stop = repeat(5, async () => {
      calls += 1;
      await sleep(80);
      finished = true;
    });
    await sleep(20); // the first run is in progress
    expect(calls).toBe(1);
    await stop();
    expect(finished).toBe(true);
    await sleep(50);
    expect(calls).toBe(1);
  });
});
