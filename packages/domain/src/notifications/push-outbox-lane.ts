import type { Clock } from '../shared/clock.js';
import type { OutboxLane } from '../shared/outbox-lane.js';
import { addSeconds, toTimestamp } from '../shared/time.js';
import {
  PUSH_CLAIM_LEASE_SECONDS,
  type PushFailureLog,
  type PushOutbox,
  type PushProvider,
  pushErrorText,
  pushRetryDelay,
} from './push-delivery.js';

/** The job that retries `push_outbox`: its name is the BullMQ job's. */
export const PUSH_JOB = 'push-retry';

/**
 * The push retries as a BullMQ lane (REDIS_URL; docs/decisions/0215): each failed push due again is
 * claimed with the outbox's lease and relayed as one job; BullMQ's retries replace the table's
 * schedule, and a push whose last attempt failed is dropped from the table as without Redis (its
 * failed job stays on the admin panel's Jobs page, with the provider's error).
 */
export class PushOutboxLane implements OutboxLane {
  constructor(
    private readonly providers: readonly PushProvider[],
    private readonly outbox: PushOutbox,
    private readonly clock: Clock,
    private readonly log: PushFailureLog,
  ) {}

  async claimDue(limit: number): Promise<string[]> {
    const now = this.clock.now();
    const claimed: string[] = [];
    for (const entry of await this.outbox.due(toTimestamp(now), limit)) {
      const until = toTimestamp(addSeconds(now, PUSH_CLAIM_LEASE_SECONDS));
      if (await this.outbox.claim(entry.id, entry.next_attempt_at, until)) claimed.push(String(entry.id));
    }
    return claimed;
  }

  async deliver(rowId: string, last: boolean): Promise<void> {
    const id = Number(rowId);
    const entry = Number.isSafeInteger(id) ? await this.outbox.find(id) : null;
    // Delivered already (a relay repeated after a crash), or dropped: nothing to send.
    if (!entry) return;
    const provider = this.providers.find((p) => p.name === entry.provider);
    if (!provider) {
      // The provider was unconfigured since: nothing can deliver it any more.
      await this.outbox.remove(id);
      return;
    }
    try {
      await provider.deliver(entry.user_id, entry.message);
    } catch (error) {
      const attempts = entry.attempts + 1;
      const reason = pushErrorText(error);
      const details = { push_to: entry.user_id, provider: entry.provider, attempts, err: reason };
      if (last) {
        this.log.warn(details, 'push dropped after its last retry');
        await this.outbox.remove(id);
      } else {
        this.log.warn(details, 'push retry failed');
        // Not due again before BullMQ's own retry would come: the relay finds it only if that job was lost.
        await this.outbox.reschedule(id, attempts, toTimestamp(addSeconds(this.clock.now(), pushRetryDelay(attempts))), reason);
      }
      throw error;
    }
    await this.outbox.remove(id);
  }
}
