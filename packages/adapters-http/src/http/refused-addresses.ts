import { type RateLimitDecision, RateLimited, type RateLimitGroup } from '@plaza/domain';

/** Forget expired entries once the map holds this many, so a flood of addresses cannot grow it forever. */
const SWEEP_AT = 10_000;

/**
 * Client addresses that the rate limiter refused in one group, for a request counted by address, until
 * the window of that refusal resets. The body middleware consults it so that a request of that group
 * from that address is not read from again (docs: app.ts, "Bodies are read last"); a request of another
 * group is none of its business (docs/decisions/0102).
 *
 * It only remembers decisions of the limiter, whose store stays the authority: with several instances
 * each one learns a refusal at the first 429 it answers itself. Deadlines are on the process's
 * monotonic clock, from the limiter's own Retry-After, so a test's manual clock and ours never mix.
 */
export class RefusedAddresses {
  private readonly until = new Map<string, { deadline: number; decision?: RateLimitDecision }>();

  remember(group: RateLimitGroup, address: string, refusal: RateLimited): void {
    const now = performance.now();
    if (this.until.size >= SWEEP_AT) for (const [key, entry] of this.until) if (entry.deadline <= now) this.until.delete(key);
    this.until.set(`${group} ${address}`, { deadline: now + refusal.retryAfterSeconds * 1000, decision: refusal.decision });
  }

  /** The refusal to answer a request of `group` from `address` with, while its window lasts; null once it has reset. */
  refusalOf(group: RateLimitGroup, address: string): RateLimited | null {
    const key = `${group} ${address}`;
    const entry = this.until.get(key);
    if (!entry) return null;
    const left = entry.deadline - performance.now();
    if (left <= 0) {
      this.until.delete(key);
      return null;
    }
    return new RateLimited(Math.ceil(left / 1000), entry.decision);
  }
}
