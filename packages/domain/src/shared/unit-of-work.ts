import { token } from './token.js';

/**
 * Runs several repository calls as one: everything the repositories do inside `run` commits together
 * or not at all. A `run` inside another joins it (one transaction, committed or rolled back by the
 * outermost). When `work` throws, its writes are undone and the error comes back unchanged.
 *
 * A decision that depends on what was read (am I the last admin?) reads inside the unit, after taking
 * the lock its repository offers for it (`MessageGroupRepository.lockGroup`, …) as the unit's first
 * step: two units deciding about the same thing then run one after the other.
 *
 * Implementations may run `work` again when the database gives up on a deadlock, so `work` should
 * only write through repositories; side effects that cannot be undone (push, mail) go through
 * `afterCommit`, or after `run`.
 */
export interface UnitOfWork {
  run<T>(work: () => Promise<T>): Promise<T>;
  /**
   * Runs `effect` once the current outermost unit has committed, or at once outside a unit: never for
   * a unit that rolls back, and once for a unit run again after a deadlock (the effects of the failed
   * attempt are dropped with it). The effect's failure is its own: the use case already committed, so
   * the unit reports it (logs it) rather than failing the caller.
   */
  afterCommit(effect: () => Promise<void>): Promise<void>;
}
export const UnitOfWork = token<UnitOfWork>('UnitOfWork');
