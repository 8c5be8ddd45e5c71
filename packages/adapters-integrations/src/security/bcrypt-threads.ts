import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/** What a hashing thread is asked: a hash of `password` at `cost`, or whether `password` matches `hash`. */
type Job = { op: 'hash'; password: string; cost: number } | { op: 'verify'; password: string; hash: string };

interface Pending {
  job: Job;
  resolve: (value: string | boolean) => void;
  reject: (error: Error) => void;
}

/**
 * Runs in each thread. It lowers its own scheduling priority first (Linux: `setpriority` on a thread
 * id moves that thread alone, and /proc/thread-self names it; elsewhere the thread keeps the
 * process's priority), then hashes with @node-rs/bcrypt's synchronous calls: the thread is there to
 * block on them.
 */
const THREAD_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
try {
  const tid = Number(require('node:fs').readlinkSync('/proc/thread-self').split('/').pop());
  require('node:os').setPriority(tid, 19);
} catch {}
const bcrypt = require(workerData.bcrypt);
parentPort.on('message', (job) => {
  try {
    const value = job.op === 'hash' ? bcrypt.hashSync(job.password, { cost: job.cost, version: '2y' }) : bcrypt.verifySync(job.password, job.hash);
    parentPort.postMessage({ value });
  } catch (error) {
    parentPort.postMessage({ error: String(error && error.message || error) });
  }
});
`;

const bcryptModule = createRequire(import.meta.url).resolve('@node-rs/bcrypt');

/**
 * bcrypt on `size` threads of their own, at the lowest priority (docs/decisions/0073). A hash costs
 * tens of milliseconds of a core: on libuv's pool at normal priority, hashes that fill every core
 * (API_WORKERS processes hashing at once) make each event loop wait for a core between two requests,
 * and a cheap request's p99 rose to 40–80 ms under logins. At the lowest priority the scheduler gives
 * an event loop that wakes its core at once; the hashes take what cores are left, which under logins
 * alone is all of them. Jobs wait in order for a free thread. Threads start on first use and never
 * keep the process alive.
 */
export class BcryptThreads {
  private readonly idle: Worker[] = [];
  private readonly busy = new Map<Worker, Pending>();
  private readonly queue: Pending[] = [];
  private started = 0;

  constructor(private readonly size: number) {}

  hash(password: string, cost: number): Promise<string> {
    return this.run({ op: 'hash', password, cost }) as Promise<string>;
  }

  verify(password: string, hash: string): Promise<boolean> {
    return this.run({ op: 'verify', password, hash }) as Promise<boolean>;
  }

  private run(job: Job): Promise<string | boolean> {
    return new Promise((resolve, reject) => {
      this.queue.push({ job, resolve, reject });
      this.next();
    });
  }

  private next(): void {
    while (this.queue.length > 0) {
      const worker = this.idle.pop() ?? (this.started < this.size ? this.start() : undefined);
      if (!worker) return;
      const pending = this.queue.shift()!;
      this.busy.set(worker, pending);
      worker.ref();
      worker.postMessage(pending.job);
    }
  }

  private start(): Worker {
    this.started += 1;
    const worker = new Worker(THREAD_SOURCE, { eval: true, workerData: { bcrypt: bcryptModule } });
    worker.unref();
    worker.on('message', (answer: { value?: string | boolean; error?: string }) => {
      const pending = this.busy.get(worker);
      this.busy.delete(worker);
      worker.unref();
      this.idle.push(worker);
      if (pending) {
        if (answer.error !== undefined) pending.reject(new Error(answer.error));
        else pending.resolve(answer.value!);
      }
      this.next();
    });
    // A thread that dies (an 'exit' follows every 'error') takes its job with it; the next job starts another.
    let failure: Error | undefined;
    worker.once('error', (error) => (failure = error));
    worker.once('exit', (code) => {
      this.started -= 1;
      const at = this.idle.indexOf(worker);
      if (at >= 0) this.idle.splice(at, 1);
      const pending = this.busy.get(worker);
      this.busy.delete(worker);
      pending?.reject(failure ?? new Error(`bcrypt thread exited (${code})`));
      this.next();
    });
    return worker;
  }
}
