import type { Clock } from '../shared/clock.js';
import { addSeconds, toTimestamp, type Timestamp } from '../shared/time.js';
import { token } from '../shared/token.js';
import type { PushMessage, PushSender } from './ports.js';

export const PUSH_PROVIDERS = ['onesignal', 'ntfy'] as const;
export type PushProviderName = (typeof PUSH_PROVIDERS)[number];

/** One external push service. `deliver` throws when the service refused or could not be reached. */
export interface PushProvider {
  readonly name: PushProviderName;
  deliver(userId: number, message: PushMessage): Promise<void>;
}
/** The configured providers, in the order pushes go out. */
export const PushProviders = token<readonly PushProvider[]>('PushProviders');

export interface PushOutboxEntry {
  id: number;
  user_id: number;
  provider: PushProviderName;
  message: PushMessage;
  /** Failed deliveries so far. */
  attempts: number;
  next_attempt_at: Timestamp;
  last_error: string;
  created_at: Timestamp;
}

export type NewPushOutboxEntry = Omit<PushOutboxEntry, 'id'>;

/** Pushes a provider failed to deliver, waiting for the retry job. */
export interface PushOutbox {
  add(entry: NewPushOutboxEntry): Promise<number>;
  find(id: number): Promise<PushOutboxEntry | null>;
  /** Entries whose next attempt is at or before `now`, oldest first. */
  due(now: Timestamp, limit: number): Promise<PushOutboxEntry[]>;
  /**
   * Claims an entry for one attempt by moving its next attempt from `expected` to `until`, in one
   * conditional write: false when another instance claimed it first.
   */
  claim(id: number, expected: Timestamp, until: Timestamp): Promise<boolean>;
  reschedule(id: number, attempts: number, next: Timestamp, error: string): Promise<void>;
  remove(id: number): Promise<void>;
}
export const PushOutbox = token<PushOutbox>('PushOutbox');

/** Where delivery failures are reported (the server's logger). */
export interface PushFailureLog {
  warn(details: object, message: string): void;
}

/** Attempts after the first failure: 30 s, 1, 2, 4 … 64 min apart, then the push is dropped. */
export const PUSH_MAX_ATTEMPTS = 8;
export const PUSH_RETRY_BASE_SECONDS = 30;
/** How long a claimed entry is left to its worker before another may take it. */
export const PUSH_CLAIM_LEASE_SECONDS = 120;

export function pushRetryDelay(attempts: number): number {
  return PUSH_RETRY_BASE_SECONDS * 2 ** (attempts - 1);
}

/**
 * The push transport when providers are configured: each push goes to every provider (or to those a
 * message names, for notifications.php's test). A provider that fails is logged and the push waits
 * in the outbox for `retryDue`; the request that raised it never fails because of it.
 */
export class PushDeliveryService implements PushSender {
  constructor(
    private readonly providers: readonly PushProvider[],
    private readonly outbox: PushOutbox,
    private readonly clock: Clock,
    private readonly log: PushFailureLog,
  ) {}

  configured(): PushProviderName[] {
    return this.providers.map((p) => p.name);
  }

  async send(userId: number, message: PushMessage): Promise<void> {
    const targets = message.providers ? this.providers.filter((p) => message.providers!.includes(p.name)) : this.providers;
    for (const provider of targets) {
      try {
        await provider.deliver(userId, message);
      } catch (error) {
        const reason = pushErrorText(error);
        this.log.warn(
          { push_to: userId, provider: provider.name, push_type: message.data.type ?? null, err: reason },
          'push failed; queued for retry',
        );
        const now = this.clock.now();
        try {
          await this.outbox.add({
            user_id: userId,
            provider: provider.name,
            message: { title: message.title, body: message.body, data: message.data },
            attempts: 1,
            next_attempt_at: toTimestamp(addSeconds(now, pushRetryDelay(1))),
            last_error: reason,
            created_at: toTimestamp(now),
          });
        } catch (queueError) {
          // Even the outbox failing must not fail the request that raised the push.
          this.log.warn({ push_to: userId, provider: provider.name, err: pushErrorText(queueError) }, 'push could not be queued for retry');
        }
      }
    }
  }

  /** The retry job: tries each due push again with its provider; answers how many went out. */
  async retryDue(limit = 100): Promise<{ delivered: number; failed: number; dropped: number }> {
    const now = this.clock.now();
    const result = { delivered: 0, failed: 0, dropped: 0 };
    for (const entry of await this.outbox.due(toTimestamp(now), limit)) {
      if (!(await this.outbox.claim(entry.id, entry.next_attempt_at, toTimestamp(addSeconds(now, PUSH_CLAIM_LEASE_SECONDS))))) continue;
      const provider = this.providers.find((p) => p.name === entry.provider);
      if (!provider) {
        // The provider was unconfigured since: nothing can deliver it any more.
        await this.outbox.remove(entry.id);
        result.dropped++;
        continue;
      }
      try {
        await provider.deliver(entry.user_id, entry.message);
        await this.outbox.remove(entry.id);
        result.delivered++;
      } catch (error) {
        const attempts = entry.attempts + 1;
        const reason = pushErrorText(error);
        if (attempts >= PUSH_MAX_ATTEMPTS) {
          this.log.warn({ push_to: entry.user_id, provider: entry.provider, attempts, err: reason }, 'push dropped after its last retry');
          await this.outbox.remove(entry.id);
          result.dropped++;
        } else {
          this.log.warn({ push_to: entry.user_id, provider: entry.provider, attempts, err: reason }, 'push retry failed');
          await this.outbox.reschedule(entry.id, attempts, toTimestamp(addSeconds(now, pushRetryDelay(attempts))), reason);
          result.failed++;
        }
      }
    }
    return result;
  }
}

export function pushErrorText(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).slice(0, 500);
}
