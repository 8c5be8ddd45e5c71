import { token } from '../shared/token.js';

/**
 * What `AuthInvalidation.changedSince` answers: the accounts whose sessions changed after the cursor
 * it was given, and the cursor to give next time. `everyone` says the adapter cannot list them (too
 * many changes, a lost connection): every cached session is then to be dropped.
 */
export interface AuthChanges {
  cursor: string;
  userIds: number[];
  everyone: boolean;
}

/**
 * The one shared signal that what an account's sessions show has changed (docs/decisions/0150): a
 * token revoked, a logout, a password changed or reset, a ban, a suspension lifted or made, a deletion,
 * two-factor turned off, a role given or taken, the name, picture, badge or privacy of the account.
 * Every process keeps the sessions it authenticated in memory (`SessionCache`) and drops an account's
 * on hearing of it: the process that made the change at once, the others within one second.
 *
 * Adapters: the database (a version row, read at most once a second per process), Redis's pub/sub
 * when `REDIS_URL` is set, and an in-memory fake; `authInvalidationContract` holds them to one rule.
 */
export interface AuthInvalidation {
  /**
   * Tells every process that the account's sessions changed. Called once the change is committed
   * (`SessionCache.publish` defers it with `UnitOfWork.afterCommit`): a process that hears of it and
   * reads the account again must read the new state.
   */
  publish(userId: number): Promise<void>;
  /**
   * The accounts published after `cursor` (null: a new cursor for "from now on", with no accounts),
   * each change seen by a reader exactly once across successive calls: none missed, whatever
   * publications ran meanwhile, and none repeated (an account may be listed again for a later change).
   */
  changedSince(cursor: string | null): Promise<AuthChanges>;
}
export const AuthInvalidation = token<AuthInvalidation>('AuthInvalidation');

/** What the adapters that change an account's sessions need of the signal: only to publish. */
export type AuthChangePublisher = Pick<AuthInvalidation, 'publish'>;
/** The process's publisher: its session cache, which forgets the account's sessions before telling the others. */
export const AuthChangePublisher = token<AuthChangePublisher>('AuthChangePublisher');
