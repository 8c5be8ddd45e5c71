import { describe, expect, it } from 'vitest';
import type { JobRunner, RunnableJob } from '../job-runner.js';
import { InMemoryOutbox } from './in-memory-outbox.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(check: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await sleep(10);
  }
}

/** An outbox job as the modules declare one: the timers' pass, and the lane BullMQ relays. */
function outboxJob(outbox: InMemoryOutbox, everyMs = 50): RunnableJob {
  return { name: 'deliver', everyMs, run: () => outbox.drain(), outbox: outbox.lane };
}

/**
 * The periodic job runners, held to the same behaviour: timers in the process and BullMQ on Redis.
 * `make` gets jobs and answers a runner not yet started, on a store of its own, or on the store
 * named `shared` (two instances of one deployment). Runners retry an outbox row 3 times in all.
 */
export function jobRunnerContract(name: string, make: (jobs: RunnableJob[], shared?: string) => Promise<JobRunner>) {
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

    it('delivers each committed outbox row exactly once, however many instances run', async () => {
      const outbox = new InMemoryOutbox(3, 60_000, 50, 5);
      for (let i = 0; i < 20; i++) outbox.add(`r${i}`);
      const store = `two-${Math.random()}`;
      const instances = [await make([outboxJob(outbox)], store), await make([outboxJob(outbox)], store)];
      await Promise.all(instances.map((r) => r.start()));
      await until(() => outbox.deliveries.length >= 20, 10_000);
      // Rows committed while the instances run are delivered too.
      for (let i = 20; i < 30; i++) outbox.add(`r${i}`);
      await until(() => outbox.deliveries.length >= 30, 10_000);
      await sleep(300);
      await Promise.all(instances.map((r) => r.stop()));
      expect(outbox.deliveries).toHaveLength(30);
      expect(new Set(outbox.deliveries).size).toBe(30);
    });

    it('retries a failing outbox row, then gives it up as failed, and delivers the others', async () => {
      const outbox = new InMemoryOutbox(3);
      outbox.add('good');
      outbox.add('bad');
      outbox.failing.add('bad');
      const runner = await make([outboxJob(outbox)]);
      await runner.start();
      await until(() => outbox.status('bad') === 'failed' && outbox.status('good') === 'sent', 10_000);
      // Given up: no attempt after the last one, however often the runner looks at the table.
      await sleep(400);
      await runner.stop();
      expect(outbox.tries.get('bad')).toBe(3);
      expect(outbox.deliveries).toEqual(['good']);
    });

    it('stops: waits for the outbox delivery in progress, and delivers nothing after', async () => {
      const outbox = new InMemoryOutbox(3, 60_000, 50, 300);
      outbox.add('slow');
      const runner = await make([outboxJob(outbox)]);
      await runner.start();
      await until(() => outbox.tries.get('slow') === 1, 5_000);
      await runner.stop();
      expect(outbox.status('slow')).toBe('sent');
      outbox.add('late');
      await sleep(400);
      expect(outbox.status('late')).toBe('pending');
    });
  });
}
