import type { Kysely, SelectQueryBuilder } from 'kysely';
import type { Database } from '../database.js';

/** The work queues an operator watches: what waits to leave (mail, push, federation) or to be written (fan-out). */
export const QUEUES = ['mail', 'push', 'federation', 'timeline_fanout'] as const;
export type QueueName = (typeof QUEUES)[number];

/**
 * Counted up to this many rows each: a scrape stays cheap (a walk of at most this many index entries)
 * however large a backlog grows, and a backlog that large is an alarm whatever its exact size.
 */
export const QUEUE_DEPTH_CAP = 100_000;

/**
 * How many rows wait in each queue, read when /metrics is scraped. Each count walks an index only:
 * mail_outbox_due (status first) for the pending mail, the primary key elsewhere, where every row is
 * work still to do (delivered or written rows are deleted).
 */
export class SqlQueueDepths {
  constructor(private readonly db: Kysely<Database>) {}

  async depths(): Promise<Record<QueueName, number>> {
    const [mail, push, federation, fanout] = await Promise.all([
      this.count(this.db.selectFrom('mail_outbox').select('id').where('status', '=', 'pending')),
      this.count(this.db.selectFrom('push_outbox').select('id')),
      // Dead deliveries (given up, kept for the admin panel: docs/decisions/0106) wait for nobody; federation_queue_live_due starts with dead_at.
      this.count(this.db.selectFrom('federation_queue').select('id').where('dead_at', 'is', null)),
      this.count(this.db.selectFrom('home_timeline_fanout').select('entry_id')),
    ]);
    return { mail, push, federation, timeline_fanout: fanout };
  }

  private async count(rows: SelectQueryBuilder<Database, keyof Database, object>): Promise<number> {
    const { n } = await this.db
      .selectFrom(rows.limit(QUEUE_DEPTH_CAP).as('queued'))
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(n);
  }
}
