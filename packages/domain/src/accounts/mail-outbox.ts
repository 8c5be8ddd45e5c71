import type { Clock } from '../shared/clock.js';
import type { OutboxSignal } from '../shared/outbox-lane.js';
import { addSeconds, toTimestamp, type Timestamp } from '../shared/time.js';
import { token } from '../shared/token.js';
import type { Mailer, MailMessage } from './ports.js';

export type OutboxStatus = 'pending' | 'sent' | 'failed';

export interface OutboxEntry {
  id: number;
  user_id: number | null;
  message: MailMessage;
  status: OutboxStatus;
  attempts: number;
  next_attempt_at: Timestamp;
  last_error: string | null;
  sent_at: Timestamp | null;
}

/**
 * Mail waiting to be delivered. A use case adds its mail inside its unit of work, so the mail exists
 * exactly when the request it belongs to committed: an SMTP server that is down delays the mail, it
 * never loses it nor fails the request.
 */
export interface MailOutbox {
  add(entry: { user_id: number | null; message: MailMessage; created_at: Timestamp }): Promise<number>;
  find(id: number): Promise<OutboxEntry | null>;
  /** Ids of pending entries whose next attempt is due at `now` and that no deliverer holds, oldest first. */
  due(now: Timestamp, limit: number): Promise<number[]>;
  /**
   * Takes a pending entry for one delivery attempt until `leaseUntil`, if nobody holds it at `now`;
   * null otherwise. One conditional write: of two deliverers (the request's own attempt, the job of
   * any instance) only one gets it. A deliverer that dies lets the lease run out and the entry is due again.
   */
  claim(id: number, now: Timestamp, leaseUntil: Timestamp): Promise<OutboxEntry | null>;
  markSent(id: number, at: Timestamp): Promise<void>;
  /** Counts a failed attempt; the entry is due again at `retryAt`, or gives up (`failed`) when it is null. */
  markFailed(id: number, error: string, retryAt: Timestamp | null): Promise<void>;
  /** Forgets every entry addressed to this account (its deletion). */
  deleteOfUser(userId: number): Promise<void>;
}
export const MailOutbox = token<MailOutbox>('MailOutbox');

/** Where delivery outcomes are reported (the server's log); the outbox row keeps the last error too. */
export interface MailDeliveryLog {
  sent(entry: OutboxEntry): void;
  failed(entry: OutboxEntry, error: string, retryAt: Timestamp | null): void;
}
export const MailDeliveryLog = token<MailDeliveryLog>('MailDeliveryLog');

/** Waits before the attempts after the first; after the last one the entry is given up (about two days in all). */
export const MAIL_RETRY_DELAYS_SECONDS = [60, 300, 900, 3600, 3 * 3600, 6 * 3600, 12 * 3600, 24 * 3600] as const;
/** Longer than the SMTP adapter's own timeouts, so a lease never runs out under a live attempt. */
export const MAIL_LEASE_SECONDS = 180;

/** Delivers outbox entries through the `Mailer`, retrying with backoff. */
export class MailDeliveryService {
  private readonly inFlight = new Set<Promise<unknown>>();

  constructor(
    private readonly outbox: MailOutbox,
    private readonly mailer: Mailer,
    private readonly clock: Clock,
    private readonly log: MailDeliveryLog,
    /** With a relaying runner (BullMQ), committed entries are handed to it instead of sent from here. */
    private readonly signal?: OutboxSignal,
  ) {}

  /** Queues a message inside the caller's unit of work; returns its outbox id for `sendSoon`. */
  queue(userId: number | null, message: MailMessage): Promise<number> {
    return this.outbox.add({ user_id: userId, message, created_at: toTimestamp(this.clock.now()) });
  }

  /**
   * After the unit of work committed: tries the entries now without making the request wait. A
   * failure is recorded on the entry and the periodic job tries again.
   */
  sendSoon(ids: number[]): void {
    if (this.signal?.relaying) {
      // 'deliver-mail' (MAIL_JOB): the relay moves them to BullMQ now; its workers send them once.
      if (ids.length > 0) this.signal.committed('deliver-mail');
      return;
    }
    const attempt = this.deliver(ids).catch((error) => {
      // The database itself failed (the entry stays pending and the job will find it).
      for (const id of ids) this.log.failed(placeholder(id), errorText(error), null);
    });
    this.inFlight.add(attempt);
    void attempt.finally(() => this.inFlight.delete(attempt));
  }

  /** Resolves when every attempt started by `sendSoon` has ended (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.inFlight.size) await Promise.allSettled([...this.inFlight]);
  }

  /** The periodic job: every entry due now, in batches. Returns how many were sent and failed. */
  async deliverDue(limit = 50): Promise<{ sent: number; failed: number }> {
    const ids = await this.outbox.due(toTimestamp(this.clock.now()), limit);
    return this.deliver(ids);
  }

  async deliver(ids: number[]): Promise<{ sent: number; failed: number }> {
    const outcome = { sent: 0, failed: 0 };
    for (const id of ids) {
      const now = this.clock.now();
      const entry = await this.outbox.claim(id, toTimestamp(now), toTimestamp(addSeconds(now, MAIL_LEASE_SECONDS)));
      if (!entry) continue;
      try {
        await this.mailer.send(entry.message);
      } catch (error) {
        const delay = MAIL_RETRY_DELAYS_SECONDS[entry.attempts];
        const retryAt = delay === undefined ? null : toTimestamp(addSeconds(this.clock.now(), delay));
        const text = errorText(error);
        await this.outbox.markFailed(id, text, retryAt);
        this.log.failed(entry, text, retryAt);
        outcome.failed += 1;
        continue;
      }
      await this.outbox.markSent(id, toTimestamp(this.clock.now()));
      this.log.sent(entry);
      outcome.sent += 1;
    }
    return outcome;
  }
}

function errorText(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).slice(0, 1000);
}

function placeholder(id: number): OutboxEntry {
  return {
    id,
    user_id: null,
    message: { to: '', subject: '', text: '' },
    status: 'pending',
    attempts: 0,
    next_attempt_at: '',
    last_error: null,
    sent_at: null,
  };
}
