import type { RateLimitStore } from './rate-limit.js';

/** Counters for a single process. Used in production when only one instance runs, and in tests. */
export class InMemoryRateLimitStore implements RateLimitStore {
  private readonly counts = new Map<string, { windowStart: number; count: number }>();

  async hit(key: string, windowStart: number): Promise<number> {
    const entry = this.counts.get(key);
    if (!entry || entry.windowStart !== windowStart) {
      this.counts.set(key, { windowStart, count: 1 });
      return 1;
    }
    entry.count += 1;
    return entry.count;
  }

  async purge(before: number): Promise<void> {
    for (const [key, entry] of this.counts) if (entry.windowStart < before) this.counts.delete(key);
  }
}
