import type { OutboxLane } from '../outbox-lane.js';

interface Row {
  status: 'pending' | 'sent' | 'failed';
  attempts: number;
  dueAt: number;
  leaseUntil: number;
}

/**
 * An outbox table in memory for the job runners' contract (docs/decisions/0215): rows with the
 * table's lease, a lane over it, and the timers' pass (`drain`). `failing` rows throw on delivery;
 * `deliveries` records every delivery that went out, so a row sent twice shows twice.
 */
export class InMemoryOutbox {
  readonly rows = new Map<string, Row>();
  readonly deliveries: string[] = [];
  readonly failing = new Set<string>();
  /** Delivery attempts made per row, failed ones included. */
  readonly tries = new Map<string, number>();

  constructor(
    /** Attempts before a row is given up (the timers' pass; BullMQ counts its own). */
    private readonly maxAttempts = 3,
    private readonly leaseMs = 60_000,
    private readonly retryAfterMs = 50,
    /** How long one delivery takes. */
    private readonly deliveryMs = 0,
  ) {}

  add(id: string): void {
    this.rows.set(id, { status: 'pending', attempts: 0, dueAt: 0, leaseUntil: 0 });
  }

  status(id: string): Row['status'] | undefined {
    return this.rows.get(id)?.status;
  }

  readonly lane: OutboxLane = {
    claimDue: async (limit) => this.claimDue(limit),
    deliver: async (id, last) => this.deliver(id, last),
  };

  /** The timers' pass, as the real outboxes' own jobs do it: claim what is due, deliver, retry later. */
  async drain(): Promise<void> {
    for (const id of this.claimDue(100)) {
      const row = this.rows.get(id)!;
      await this.deliver(id, row.attempts + 1 >= this.maxAttempts).catch(() => {});
    }
  }

  private claimDue(limit: number): string[] {
    const now = Date.now();
    const claimed: string[] = [];
    // One conditional write per row, as the tables' claims: a row held by a lease is not taken again.
    for (const [id, row] of this.rows) {
      if (claimed.length >= limit) break;
      if (row.status !== 'pending' || row.dueAt > now || row.leaseUntil > now) continue;
      row.leaseUntil = now + this.leaseMs;
      claimed.push(id);
    }
    return claimed;
  }

  private async deliver(id: string, last: boolean): Promise<void> {
    const row = this.rows.get(id);
    if (!row || row.status === 'sent') return;
    this.tries.set(id, (this.tries.get(id) ?? 0) + 1);
    if (this.deliveryMs) await new Promise((resolve) => setTimeout(resolve, this.deliveryMs));
    if (this.failing.has(id)) {
      row.attempts += 1;
      row.leaseUntil = 0;
      if (last) row.status = 'failed';
      else row.dueAt = Date.now() + this.retryAfterMs;
      throw new Error(`refused ${id}`);
    }
    row.status = 'sent';
    row.leaseUntil = 0;
    this.deliveries.push(id);
  }
}
