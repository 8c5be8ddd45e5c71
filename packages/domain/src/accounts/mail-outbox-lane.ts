import type { Clock } from '../shared/clock.js';
import type { OutboxLane } from '../shared/outbox-lane.js';
import { addSeconds, toTimestamp } from '../shared/time.js';
import { MAIL_LEASE_SECONDS, MAIL_RETRY_DELAYS_SECONDS, type MailDeliveryLog, type MailOutbox } from './mail-outbox.js';
import type { Mailer } from './ports.js';

/** The job that drains `mail_outbox`: its name is the BullMQ job's and the outbox signal's. */
export const MAIL_JOB = 'deliver-mail';

/**
 * The mail outbox as a BullMQ lane (REDIS_URL; docs/decisions/0215): the relay claims due entries
 * with the outbox's lease, each becomes one BullMQ job, and BullMQ's retries replace the table's
 * schedule. The entry still records every failure (attempts, last error), and a delivery given up is
 * `failed` in the table as without Redis; an administrator retrying its failed job sends it then.
 */
export class MailOutboxLane implements OutboxLane {
  constructor(
    private readonly outbox: MailOutbox,
    private readonly mailer: Mailer,
    private readonly clock: Clock,
    private readonly log: MailDeliveryLog,
  ) {}

  async claimDue(limit: number): Promise<string[]> {
    const now = this.clock.now();
    const claimed: string[] = [];
    for (const id of await this.outbox.due(toTimestamp(now), limit)) {
      if (await this.outbox.claim(id, toTimestamp(now), toTimestamp(addSeconds(now, MAIL_LEASE_SECONDS)))) claimed.push(String(id));
    }
    return claimed;
  }

  async deliver(rowId: string, last: boolean): Promise<void> {
    const id = Number(rowId);
    const entry = Number.isSafeInteger(id) ? await this.outbox.find(id) : null;
    // Sent already (a relay repeated after a crash), or deleted with its account: nothing to send.
    if (!entry || entry.status === 'sent') return;
    try {
      await this.mailer.send(entry.message);
    } catch (error) {
      const text = (error instanceof Error ? error.message : String(error)).slice(0, 1000);
      // Not due again before BullMQ's own retry would come: the relay finds it only if that job was lost.
      const delay = MAIL_RETRY_DELAYS_SECONDS[Math.min(entry.attempts, MAIL_RETRY_DELAYS_SECONDS.length - 1)];
      const retryAt = last ? null : toTimestamp(addSeconds(this.clock.now(), delay));
      await this.outbox.markFailed(id, text, retryAt);
      this.log.failed(entry, text, retryAt);
      throw error;
    }
    await this.outbox.markSent(id, toTimestamp(this.clock.now()));
    this.log.sent(entry);
  }
}
