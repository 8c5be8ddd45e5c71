import { AsyncLocalStorage } from 'node:async_hooks';

/** What the HTTP layer says of the operation it is about to run. */
export interface OperationScope {
  /** The operation's HTTP method: only GET operations may read from a replica. */
  method: string;
  /** The authenticated user, if any: a user who wrote lately reads from the primary. */
  userId: number | null;
}

/**
 * Which reads may go to a read replica (`DB_READ_HOSTS`, docs/decisions/0141): the plain reads
 * (`selectFrom`, and the compiled selects of `executeQuery`, outside a unit of work) of a GET
 * operation, unless its user wrote in the last
 * `windowMs` (read-your-writes: a replica may lag behind the primary by that much). Every operation
 * that is not a GET counts as a write of its user, from its start to `windowMs` after its end. The
 * last-write times live in this process: a user whose write went through another instance may read
 * from a replica here before the window is over (the decision says so).
 */
export class ReadRouting {
  private readonly scope = new AsyncLocalStorage<boolean>();
  private readonly lastWrite = new Map<number, number>();
  /** Reads sent to a replica and kept on the primary, for monitoring and tests. */
  readonly stats = { replicaReads: 0 };

  constructor(
    readonly enabled: boolean,
    readonly windowMs = 5000,
  ) {}

  /** Runs one HTTP operation, recording its user's write or letting its reads go to a replica. */
  async run<T>(operation: OperationScope, work: () => Promise<T>): Promise<T> {
    if (!this.enabled) return work();
    const { userId } = operation;
    if (operation.method !== 'GET') {
      if (userId === null) return work();
      this.wrote(userId);
      try {
        return await work();
      } finally {
        this.wrote(userId);
      }
    }
    const recent = userId !== null && Date.now() - (this.lastWrite.get(userId) ?? 0) < this.windowMs;
    return recent ? work() : this.scope.run(true, work);
  }

  /** Whether a plain read made now may go to a replica. */
  replicaAllowed(): boolean {
    return this.scope.getStore() === true;
  }

  private wrote(userId: number): void {
    const now = Date.now();
    this.lastWrite.delete(userId);
    this.lastWrite.set(userId, now);
    // Insertion order is write order: the oldest entries are first, and past the window they are dropped.
    if (this.lastWrite.size > 1000) {
      for (const [id, at] of this.lastWrite) {
        if (now - at < this.windowMs) break;
        this.lastWrite.delete(id);
      }
    }
  }
}
