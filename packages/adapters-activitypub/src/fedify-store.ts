import type {
  KvKey,
  KvStore,
  KvStoreSetOptions,
  MessageQueue,
  MessageQueueEnqueueOptions,
  MessageQueueListenOptions,
} from '@fedify/fedify';
import type { Clock } from '@plaza/domain';
import { toTimestamp } from '@plaza/domain';
import type { FederationKeyValues, FederationQueue } from '@plaza/domain/federation';

/** Fedify's `KvStore` on our database (the `FederationKeyValues` port: federation_kv). */
export class DatabaseKvStore implements KvStore {
  constructor(
    private readonly kv: FederationKeyValues,
    private readonly clock: Clock,
  ) {}

  private static key(key: KvKey): string {
    return JSON.stringify(key);
  }

  async get<T = unknown>(key: KvKey): Promise<T | undefined> {
    return (await this.kv.get(DatabaseKvStore.key(key), toTimestamp(this.clock.now()))) as T | undefined;
  }

  async set(key: KvKey, value: unknown, options?: KvStoreSetOptions): Promise<void> {
    const ttlMs = options?.ttl ? options.ttl.total({ unit: 'millisecond' }) : null;
    const expiresAt = ttlMs === null ? null : toTimestamp(new Date(this.clock.now().getTime() + Math.max(1000, ttlMs)));
    await this.kv.set(DatabaseKvStore.key(key), value, expiresAt);
  }

  async delete(key: KvKey): Promise<void> {
    await this.kv.delete(DatabaseKvStore.key(key));
  }
}

/** The queue channel of Fedify's own tasks (inbound activities it processes after answering 202). */
export const FEDIFY_CHANNEL = 'fedify';

/**
 * Fedify's `MessageQueue` on the persisted federation queue (the `FederationQueue` port), shared by
 * every instance. `listen` only registers Fedify's handler: the messages are worked by the
 * federation job of apps/server (`FederationWorker`), which hands each due message to it.
 */
export class DatabaseMessageQueue implements MessageQueue {
  private handler: ((message: unknown) => Promise<void> | void) | null = null;

  constructor(
    private readonly queue: FederationQueue,
    private readonly clock: Clock,
  ) {}

  async enqueue(message: unknown, options?: MessageQueueEnqueueOptions): Promise<void> {
    await this.enqueueMany([message], options);
  }

  async enqueueMany(messages: unknown[], options?: MessageQueueEnqueueOptions): Promise<void> {
    const delayMs = options?.delay ? Math.max(0, options.delay.total({ unit: 'millisecond' })) : 0;
    const due = toTimestamp(new Date(this.clock.now().getTime() + delayMs));
    await this.queue.enqueue(messages.map((payload) => ({ channel: FEDIFY_CHANNEL, payload, due_at: due })));
  }

  listen(handler: (message: unknown) => Promise<void> | void, options?: MessageQueueListenOptions): Promise<void> {
    this.handler = handler;
    return new Promise((resolve) => {
      options?.signal?.addEventListener('abort', () => {
        if (this.handler === handler) this.handler = null;
        resolve();
      });
    });
  }

  /** Fedify's handler once `startQueue` ran; null before. */
  get listener(): ((message: unknown) => Promise<void> | void) | null {
    return this.handler;
  }
}
