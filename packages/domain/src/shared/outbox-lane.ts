/**
 * One transactional outbox (mail, pushes…) as a job queue (docs/decisions/0215). Its rows are written
 * in the unit of work of the state that causes them, so they exist exactly when that state committed.
 * The database runner polls the table (the job's own `run`); the BullMQ runner instead relays each
 * committed row to Redis as one job, whose id is the row's, and delivers it there with retries.
 */
export interface OutboxLane {
  /**
   * Claims up to `limit` rows that are due and held by nobody, with the table's own lease (one
   * conditional write each, so two relays never take the same row), and answers their ids. A row whose
   * relay was lost (Redis away) is due again when its lease runs out.
   */
  claimDue(limit: number): Promise<string[]>;
  /**
   * Delivers one relayed row. Throws when the attempt failed and may be tried again; on the `last`
   * attempt a failure first gives the row up as the table does (kept failed, or dropped). A row
   * delivered already, or gone, delivers nothing: a relay repeated after a crash sends nothing twice.
   */
  deliver(id: string, last: boolean): Promise<void>;
}

/**
 * Tells the runner that rows of an outbox job were just committed, so the BullMQ runner relays them
 * now instead of at its next pass. Bound once per process without dependencies, so the services that
 * write outbox rows can hold it although the runner depends on them (through their jobs).
 */
export class OutboxSignal {
  private readonly listeners = new Set<(job: string) => void>();

  /** Rows of `job`'s outbox were committed. */
  committed(job: string): void {
    for (const listener of this.listeners) listener(job);
  }

  /** Whether a runner relays outboxes (BullMQ): without one, the services deliver as before. */
  get relaying(): boolean {
    return this.listeners.size > 0;
  }

  listen(listener: (job: string) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
