import { token } from '../shared/token.js';
import { RateLimited } from '../shared/errors.js';
import type { Clock } from '../shared/clock.js';

/** Endpoint groups of the spec's limits table. */
export const RATE_LIMIT_GROUPS = [
  'auth',
  'posts',
  'comments',
  'comment_reactions',
  'messages',
  'reactions',
  'group_reactions',
  'upload',
  'export',
  'calls',
  'reads',
  'default',
] as const;
export type RateLimitGroup = (typeof RATE_LIMIT_GROUPS)[number];

/** Requests per hour, from the spec. */
export const DEFAULT_RATE_LIMITS: Record<RateLimitGroup, number> = {
  auth: 50,
  posts: 100,
  comments: 150,
  comment_reactions: 200,
  messages: 200,
  reactions: 200,
  group_reactions: 200,
  upload: 50,
  export: 5,
  calls: 100,
  // Not in the spec's table: reads that the clients poll (chat every 10 s, typing every 6 s, calls
  // every 2 s) would exhaust any write-sized limit. See docs/decisions/0005-reads-have-their-own-limit.md.
  reads: 3600,
  default: 100,
};

export const RATE_LIMIT_WINDOW_SECONDS = 3600;

/**
 * Login attempts per hour against one account, known or not, whatever the address (docs/decisions/0102):
 * beside the `auth` group's per-address limit, so that guessing one account's password neither goes on
 * from many addresses nor locks everyone behind the guesser's address out of their own accounts.
 */
export const DEFAULT_LOGIN_ACCOUNT_LIMIT = 10;

/** Counts hits per key and fixed window. One process may keep them in memory; several share a database. */
export interface RateLimitStore {
  /** Adds one hit to `key` in the window starting at `windowStart` (unix seconds) and returns the new count. */
  hit(key: string, windowStart: number): Promise<number>;
  /** Forgets windows that ended before `before` (unix seconds). */
  purge(before: number): Promise<void>;
}
export const RateLimitStore = token<RateLimitStore>('RateLimitStore');

export interface RateLimitDecision {
  limit: number;
  remaining: number;
  /** Unix seconds at which the window resets. */
  reset: number;
}

export class RateLimiter {
  constructor(
    private readonly store: RateLimitStore,
    private readonly limits: Record<RateLimitGroup, number>,
    private readonly clock: Clock,
    private readonly loginAccountLimit: number = DEFAULT_LOGIN_ACCOUNT_LIMIT,
  ) {}

  /**
   * Counts one request of `subject` (a user id or a client address) in `group`. Throws RateLimited
   * past the limit; either way returns the figures for the response headers.
   */
  consume(group: RateLimitGroup, subject: string): Promise<RateLimitDecision> {
    return this.count(`${group}:${subject}`, this.limits[group]);
  }

  /**
   * Counts one login attempt against an account, whether it exists or not: `account` names the login as
   * typed (user name or e-mail), normalised and digested by the caller so that every spelling of one
   * login shares a counter and no e-mail address is stored. Throws RateLimited past the limit.
   */
  consumeLogin(account: string): Promise<RateLimitDecision> {
    return this.count(`login_account:${account}`, this.loginAccountLimit);
  }

  private async count(key: string, limit: number): Promise<RateLimitDecision> {
    const nowSeconds = Math.floor(this.clock.now().getTime() / 1000);
    const windowStart = nowSeconds - (nowSeconds % RATE_LIMIT_WINDOW_SECONDS);
    const reset = windowStart + RATE_LIMIT_WINDOW_SECONDS;
    const count = await this.store.hit(key, windowStart);
    const decision = { limit, remaining: Math.max(0, limit - count), reset };
    if (count > limit) throw new RateLimited(reset - nowSeconds, decision);
    return decision;
  }
}

/** Parses `API_RATE_LIMITS` overrides: `posts=500,auth=20`. */
export function parseRateLimitOverrides(spec: string | undefined): Partial<Record<RateLimitGroup, number>> {
  const out: Partial<Record<RateLimitGroup, number>> = {};
  if (!spec?.trim()) return out;
  for (const part of spec.split(',')) {
    const [rawName, rawValue] = part.split('=').map((s) => s.trim());
    if (!(RATE_LIMIT_GROUPS as readonly string[]).includes(rawName)) {
      throw new Error(`unknown rate-limit group "${rawName}" (known: ${RATE_LIMIT_GROUPS.join(', ')})`);
    }
    const value = Number(rawValue);
    if (!Number.isInteger(value) || value < 1) throw new Error(`limit for "${rawName}" must be a positive integer`);
    out[rawName as RateLimitGroup] = value;
  }
  return out;
}
