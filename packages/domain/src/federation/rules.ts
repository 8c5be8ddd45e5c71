import type { PostAudience } from '../content/visibility.js';

/**
 * Who a post federates to (docs/decisions/0050). Only what an account publishes on its own wall
 * leaves the server: a public account's posts are addressed to the public (and its followers), a
 * private account's to its followers only (never with the Public collection). Anything else (group,
 * page and message content, and every audience kind added later) does not federate: a new kind of
 * audience stays local until it is added here on purpose.
 */
export type FederationAudience = 'public' | 'followers';

export function federationAudienceOf(audience: PostAudience | { kind: string }): FederationAudience | null {
  if (audience.kind !== 'account') return null;
  return (audience as PostAudience).isPrivate ? 'followers' : 'public';
}

/** The largest remote document (actor, outbox, note, WebFinger answer) Plaza reads: 1 MB. */
export const REMOTE_DOCUMENT_MAX_BYTES = 1024 * 1024;

/** Delivery retries: 30 s after the first failure, doubling, 10 attempts in all (about 4 h 15 min). */
export const DELIVERY_MAX_ATTEMPTS = 10;
export function retryDelaySeconds(attempts: number): number {
  return 30 * 2 ** Math.max(0, attempts - 1);
}
