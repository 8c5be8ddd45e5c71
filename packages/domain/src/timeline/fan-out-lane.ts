import type { OutboxLane } from '../shared/outbox-lane.js';
import type { HomeTimelineRepository } from './home-timeline.js';

/**
 * The home-timeline fan-out queue as a BullMQ lane (REDIS_URL; docs/decisions/0215): each queued wall
 * entry is claimed with the queue's lease and relayed as one job whose id is the entry's; the job
 * writes it into every timeline, as the periodic job does, through the same repository calls.
 * A failure (the database) is thrown for BullMQ's retry; on the last attempt too, as the entry cannot
 * be given up: it stays queued, its failed job on the Jobs page, whose run again fans it out.
 */
export class FanOutLane implements OutboxLane {
  constructor(private readonly timelines: HomeTimelineRepository) {}

  async claimDue(limit: number): Promise<string[]> {
    return (await this.timelines.claimQueued(limit)).map(String);
  }

  async deliver(rowId: string): Promise<void> {
    const id = Number(rowId);
    // Not an entry id (nothing this lane relays): nothing to write.
    if (!Number.isSafeInteger(id)) return;
    // Done already (a relay repeated after a crash) or its post removed: writes nothing.
    await this.timelines.fanOutEntry(id);
  }
}
