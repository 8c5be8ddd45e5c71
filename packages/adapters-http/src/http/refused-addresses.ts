import { type RateLimitDecision, RateLimited, type RateLimitGroup } from '@plaza/domain';

/** Forget expired entries once this many addresses are held, so a flood of addresses cannot grow it forever. */
const SWEEP_AT = 10_000;

interface Refusal {
  deadline: number;
  decision?: RateLimitDecision;
}

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
  private readonly byAddress = new Map<string, Map<RateLimitGroup, Refusal>>();

  remember(group: RateLimitGroup, address: string, refusal: RateLimited): void {
    const now = performance.now();
    if (this.byAddress.size >= SWEEP_AT) this.sweep(now);
    let groups = this.byAddress.get(address);
    if (!groups) this.byAddress.set(address, (groups = new Map()));
    groups.set(group, { deadline: now + refusal.retryAfterSeconds * 1000, decision: refusal.decision });
  }

  /** Whether `address` was refused in some group lately: when not, nobody needs to work out a request's group. */
  knows(address: string): boolean {
    return this.byAddress.has(address);
  }

  /** The refusal to answer a request of `group` from `address` with, while its window lasts; null once it has reset. */
  refusalOf(group: RateLimitGroup, address: string): RateLimited | null {
    const groups = this.byAddress.get(address);
    const entry = groups?.get(group);
    if (!groups || !entry) return null;
    const left = entry.deadline - performance.now();
    if (left <= 0) {
      groups.delete(group);
      if (groups.size === 0) this.byAddress.delete(address);
      return null;
    }
    return new RateLimited(Math.ceil(left / 1000), entry.decision);
  }

  private sweep(now: number): void {
    for (const [address, groups] of this.byAddress) {
      for (const [group, entry] of groups) if (entry.deadline <= now) groups.delete(group);
      if (groups.size === 0) this.byAddress.delete(address);
    }
  }
}
