import { type RateLimitDecision, RateLimited } from '@plaza/domain';

/** Forget expired entries once the map holds this many, so a flood of addresses cannot grow it forever. */
const SWEEP_AT = 10_000;

/**
 * Client addresses that the rate limiter refused for a request counted by address, until the window of
 * that refusal resets. The body middleware consults it so that an address already refused is not read
 * from again (docs: app.ts, "Bodies are read last").
 *
 * It only remembers decisions of the limiter, whose store stays the authority: with several instances
 * each one learns a refusal at the first 429 it answers itself. Deadlines are on the process's
 * monotonic clock, from the limiter's own Retry-After, so a test's manual clock and ours never mix.
 */
export class RefusedAddresses {
  private readonly until = new Map<string, { deadline: number; decision?: RateLimitDecision }>();

  remember(address: string, refusal: RateLimited): void {
    const now = performance.now();
    if (this.until.size >= SWEEP_AT) for (const [key, entry] of this.until) if (entry.deadline <= now) this.until.delete(key);
    this.until.set(address, { deadline: now + refusal.retryAfterSeconds * 1000, decision: refusal.decision });
  }

  /** The refusal to answer `address` with, while its window lasts; null once it has reset. */
  refusalOf(address: string): RateLimited | null {
    const entry = this.until.get(address);
    if (!entry) return null;
    const left = entry.deadline - performance.now();
    if (left <= 0) {
      this.until.delete(address);
      return null;
    }
    return new RateLimited(Math.ceil(left / 1000), entry.decision);
  }
}
