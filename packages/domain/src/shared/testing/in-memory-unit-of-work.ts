import type { UnitOfWork } from '../unit-of-work.js';
import type { Restore, Snapshottable } from './snapshot.js';

/**
 * All or nothing over in-memory fakes: the outermost `run` snapshots every participant and, when the
 * work throws, restores them all before rethrowing. A `run` started while another is in progress
 * joins it, as on SQL.
 *
 * It models one flow of control at a time, which is what domain unit tests drive: without a per-call
 * context (AsyncLocalStorage belongs to adapters) it cannot tell a nested `run` from a concurrent one,
 * so concurrent units are treated as one. Isolation between concurrent units is the SQL
 * implementation's, proven by test/contracts/unit-of-work.test.ts and the e2e concurrency test.
 */
export class InMemoryUnitOfWork implements UnitOfWork {
  private readonly participants: Snapshottable[];
  private depth = 0;
  private effects: (() => Promise<void>)[] = [];
  /** Outermost units that completed, and that were undone: lets a test see that a use case used one. */
  commits = 0;
  rollbacks = 0;

  constructor(...participants: Snapshottable[]) {
    this.participants = participants;
  }

  /** True while a unit is in progress. */
  get active(): boolean {
    return this.depth > 0;
  }

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.depth > 0) {
      this.depth += 1;
      try {
        return await work();
      } finally {
        this.depth -= 1;
      }
    }
    const restores: Restore[] = this.participants.map((p) => p.snapshot());
    this.depth = 1;
    this.effects = [];
    let result: T;
    try {
      result = await work();
      this.commits += 1;
    } catch (error) {
      for (const restore of restores.reverse()) restore();
      this.rollbacks += 1;
      this.effects = [];
      throw error;
    } finally {
      this.depth = 0;
    }
    const effects = this.effects;
    this.effects = [];
    // Unit tests see an effect's failure: there is no log to report it to.
    for (const effect of effects) await effect();
    return result;
  }

  async afterCommit(effect: () => Promise<void>): Promise<void> {
    if (this.depth > 0) this.effects.push(effect);
    else await effect();
  }
}
