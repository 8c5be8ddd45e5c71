import { AsyncLocalStorage } from 'node:async_hooks';
import type { UnitOfWork } from '@plaza/domain';
import type { CompiledQuery, IsolationLevel, Kysely, Transaction, TransactionBuilder } from 'kysely';
import type { Database } from './database.js';
import { isNodeUnusable } from './node-pools.js';
import type { ReadRouting } from './read-routing.js';
import { conflictBackoff, isRetryableConflict, MAX_CONFLICT_ATTEMPTS } from './conflicts.js';

/**
 * Ambient transactions. `openDatabase` hands every repository a `db` that is a thin Proxy over the
 * root Kysely instance: each property access goes to the transaction the current async call chain
 * runs in (an `AsyncLocalStorage` per database), or to the root when there is none. So a unit of work
 * is `db.transaction().execute(…)` around the use case's repository calls, and repositories keep their
 * constructors and their code: they neither know nor care whether they run inside one.
 *
 * - A transaction started through the routing `db` (by a unit of work, or by a repository for its own
 *   multi-row write) is ambient: inside it, `this.db` routes to it too.
 * - `db.transaction()` inside one joins it instead of failing (Kysely refuses nested transactions):
 *   its callback gets the current transaction, and commits or rolls back with it. Isolation level and
 *   access mode asked by a joining transaction are those of the outer one.
 * - An outermost transaction that loses a conflict (a deadlock victim, a Galera certification failure
 *   at commit, a lock wait timeout: conflicts.ts) runs again, ten attempts in all: the server has undone
 *   it, and waiting transactions usually go through. Statements outside any transaction are retried
 *   the same way by the dialect (`retryingConflicts`).
 * - Once a transaction has committed, late continuations of its work (a promise left running) go to
 *   the root, outside it. After a rollback they keep pointing at it, so Kysely refuses them: nothing
 *   of a failed unit gets written late.
 */
interface Ambient {
  trx: Transaction<Database>;
  committed: boolean;
  /** What runs once this transaction has committed (UnitOfWork.afterCommit). */
  effects: (() => Promise<void>)[];
}

/** Where a failing after-commit effect is reported: the use case has committed and is not failed by it. */
export type EffectFailureLog = (error: unknown) => void;

class AmbientTransactions {
  readonly storage = new AsyncLocalStorage<Ambient>();
  /** Counters for logs and tests. */
  readonly stats = { committed: 0, rolledBack: 0, deadlockRetries: 0 };
  constructor(readonly root: Kysely<Database>) {}

  current(): Transaction<Database> | undefined {
    return this.currentAmbient()?.trx;
  }

  currentAmbient(): Ambient | undefined {
    const ambient = this.storage.getStore();
    return ambient && !ambient.committed ? ambient : undefined;
  }

  /**
   * Runs `work` in a new ambient transaction. A conflict's loser (deadlock victim, lost Galera
   * certification, lock wait timeout) has been rolled back by the server, so it runs again from the
   * start, and so does one whose connection was lost before its commit: transactions write nothing
   * but rows, and the effects that cannot be undone wait for the commit of the attempt that succeeds
   * (`afterCommit`).
   */
  async execute<T>(
    settings: TransactionSettings,
    work: (trx: Transaction<Database>) => Promise<T>,
    onEffectFailure?: EffectFailureLog,
  ): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      let outcome: { result: T; effects: Ambient['effects'] };
      const progress = { committing: false };
      try {
        outcome = await this.once(settings, work, progress);
      } catch (error) {
        this.stats.rolledBack += 1;
        // A connection lost before the commit was asked for (its node went away) committed nothing:
        // the next attempt gets a connection from the next node (node-pools.ts). Lost during the
        // commit, the outcome is unknown, and the failure is the caller's.
        const retryable = isRetryableConflict(error) || (isNodeUnusable(error) && !progress.committing);
        if (!retryable || attempt >= MAX_CONFLICT_ATTEMPTS) throw error;
        this.stats.deadlockRetries += 1;
        await conflictBackoff(attempt);
        continue;
      }
      this.stats.committed += 1;
      for (const effect of outcome.effects) await runEffect(effect, onEffectFailure);
      return outcome.result;
    }
  }

  /** One attempt; its effects are handed back only when it committed, so a failed attempt's are dropped. */
  private async once<T>(
    settings: TransactionSettings,
    work: (trx: Transaction<Database>) => Promise<T>,
    progress: { committing: boolean },
  ): Promise<{ result: T; effects: Ambient['effects'] }> {
    let builder = this.root.transaction();
    if (settings.isolationLevel) builder = builder.setIsolationLevel(settings.isolationLevel);
    if (settings.accessMode) builder = builder.setAccessMode(settings.accessMode);
    const ambient: Ambient = { trx: undefined as never, committed: false, effects: [] };
    const result = await builder.execute(async (trx) => {
      ambient.trx = trx;
      const out = await this.storage.run(ambient, () => work(trx));
      ambient.committed = true;
      progress.committing = true;
      return out;
    });
    return { result, effects: ambient.effects };
  }
}

/** An effect after a commit: its failure is reported, not thrown, when there is somewhere to report it. */
async function runEffect(effect: () => Promise<void>, onFailure?: EffectFailureLog): Promise<void> {
  try {
    await effect();
  } catch (error) {
    if (!onFailure) throw error;
    onFailure(error);
  }
}

interface TransactionSettings {
  isolationLevel?: IsolationLevel;
  accessMode?: 'read only' | 'read write';
}

/** What `db.transaction()` returns through the routing db: Kysely's builder, made ambient or joining. */
class RoutedTransactionBuilder {
  constructor(
    private readonly transactions: AmbientTransactions,
    private readonly settings: TransactionSettings = {},
  ) {}

  setIsolationLevel(isolationLevel: IsolationLevel): RoutedTransactionBuilder {
    return new RoutedTransactionBuilder(this.transactions, { ...this.settings, isolationLevel });
  }

  setAccessMode(accessMode: 'read only' | 'read write'): RoutedTransactionBuilder {
    return new RoutedTransactionBuilder(this.transactions, { ...this.settings, accessMode });
  }

  async execute<T>(callback: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
    const current = this.transactions.current();
    if (current) return callback(current);
    return this.transactions.execute(this.settings, callback);
  }
}

const routing = new WeakMap<Kysely<Database>, AmbientTransactions>();

/** Whether `prop` is a method (not a getter such as `fn` or `schema`) of `target` or its prototypes. */
function isMethod(target: object, prop: PropertyKey): boolean {
  for (let o: object | null = target; o; o = Object.getPrototypeOf(o)) {
    const descriptor = Object.getOwnPropertyDescriptor(o, prop);
    if (descriptor) return 'value' in descriptor && typeof descriptor.value === 'function';
  }
  return false;
}

/**
 * The `db` repositories hold: routes every call to the current ambient transaction, or to `root`.
 * Kysely keeps its state in private fields, so methods are called on the real instance, never on the
 * proxy.
 */
export function routedDatabase(root: Kysely<Database>, replica?: { db: Kysely<Database>; routing: ReadRouting }): Kysely<Database> {
  const transactions = new AmbientTransactions(root);
  const rootMethods = new Map<PropertyKey, unknown>();
  const replicaSelect = replica?.db.selectFrom.bind(replica.db);
  // Statements built once (prepared.ts: the profile, the feed's page) arrive compiled: a select of them may go too.
  const replicaExecute =
    replica &&
    (<R>(query: CompiledQuery<R>) =>
      query.query?.kind === 'SelectQueryNode' || /^\s*select\b/i.test(query.sql)
        ? replica.db.executeQuery(query)
        : root.executeQuery(query));
  const db = new Proxy(root, {
    get(_target, prop) {
      if (prop === 'transaction') return () => new RoutedTransactionBuilder(transactions) as unknown as TransactionBuilder<Database>;
      const trx = transactions.current();
      if (trx) {
        if (prop === 'connection') return () => ({ execute: <T>(callback: (db: Kysely<Database>) => Promise<T>) => callback(trx) });
        const value: unknown = Reflect.get(trx, prop, trx);
        return typeof value === 'function' && isMethod(trx, prop) ? value.bind(trx) : value;
      }
      // A plain read of a GET operation, outside any unit of work, may go to a replica (read-routing.ts).
      if ((prop === 'selectFrom' || prop === 'executeQuery') && replica?.routing.replicaAllowed()) {
        replica.routing.stats.replicaReads += 1;
        return prop === 'selectFrom' ? replicaSelect : replicaExecute;
      }
      const cached = rootMethods.get(prop);
      if (cached) return cached;
      const value: unknown = Reflect.get(root, prop, root);
      if (typeof value !== 'function' || !isMethod(root, prop)) return value;
      const bound = value.bind(root);
      rootMethods.set(prop, bound);
      return bound;
    },
  });
  routing.set(db, transactions);
  return db;
}

/**
 * The SQL unit of work: one ambient transaction per outermost `run`, which every repository built on
 * the same routing `db` joins; a nested `run` joins the current one. When MySQL/MariaDB picks the unit
 * as a deadlock victim, or Galera refuses its certification (the whole transaction is then rolled
 * back), the unit runs again, up to ten times in all (conflicts.ts).
 */
export class KyselyUnitOfWork implements UnitOfWork {
  private readonly transactions: AmbientTransactions;

  constructor(
    db: Kysely<Database>,
    private readonly onEffectFailure?: EffectFailureLog,
  ) {
    const transactions = routing.get(db);
    if (!transactions) {
      throw new Error('KyselyUnitOfWork needs the db of openDatabase(), which routes repositories to the current transaction');
    }
    this.transactions = transactions;
  }

  /** Outermost transactions of this database committed, rolled back, and run again after a deadlock. */
  get stats(): Readonly<{ committed: number; rolledBack: number; deadlockRetries: number }> {
    return { ...this.transactions.stats };
  }

  /** Whether the calling async chain runs inside a transaction of this database. */
  get active(): boolean {
    return this.transactions.current() !== undefined;
  }

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.active) return work();
    return this.transactions.execute({}, () => work(), this.onEffectFailure);
  }

  async afterCommit(effect: () => Promise<void>): Promise<void> {
    const ambient = this.transactions.currentAmbient();
    if (ambient) {
      ambient.effects.push(effect);
      return;
    }
    await runEffect(effect, this.onEffectFailure);
  }
}
