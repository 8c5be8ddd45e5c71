import { describe, expect, it } from 'vitest';
import type { JobRunner, RunnableJob } from '../job-runner.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(check: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await sleep(10);
  }
}

/**
 * The periodic job runners, held to the same behaviour: timers in the process and BullMQ on Redis.
 * `make` gets jobs and answers a runner not yet started, on a store of its own.
 */
export function jobRunnerContract(name: string, make: (jobs: RunnableJob[]) => Promise<JobRunner>) {
  describe(`${name}: job runner contract`, () => {
    it('runs each job again and again, each at its own period', async () => {
      const runs = { a: 0, b: 0 };
      const runner = await make([
        { name: 'a', everyMs: 100, run: async () => void runs.a++ },
        { name: 'b', everyMs: 100, run: async () => void runs.b++ },
      ]);
      await runner.start();
      await until(() => runs.a >= 3 && runs.b >= 3, 5_000);
      await runner.stop();
    });

    it('goes on after a run that throws', async () => {
      let calls = 0;
      const runner = await make([
        {
          name: 'flaky',
          everyMs: 100,
          run: async () => {
            calls += 1;
            if (calls <= 2) throw new Error(`failure ${calls}`);
          },
        },
      ]);
      await runner.start();
      await until(() => calls >= 4, 10_000);
      await runner.stop();
    });

    it('stops: waits for the run in progress, and no run starts after', async () => {
      let calls = 0;
      let finished = 0;
      const runner = await make([
        {
          name: 'slow',
          everyMs: 50,
          run: async () => {
            calls += 1;
            await sleep(300);
            finished += 1;
          },
        },
      ]);
      await runner.start();
      await until(() => calls >= 1, 5_000);
      await runner.stop();
      expect(finished).toBe(calls);
      const after = calls;
      await sleep(400);
      expect(calls).toBe(after);
    });
  });
}
