import { type FederationScope, federationScopeOf } from '../content/surfaces.js';
import type { PostAudience } from '../content/visibility.js';

/**
 * Who a post federates to (docs/decisions/0050): the surface's rule (content/surfaces.ts,
 * `SURFACE_FEDERATION`). Only what an account publishes on its own wall leaves the server today: a
 * public account's posts are addressed to the public (and its followers), a private account's to its
 * followers only (never with the Public collection). Group and page posts, message content and every
 * audience kind added later stay local until the surface policy says otherwise on purpose.
 */
export type FederationAudience = FederationScope;

export function federationAudienceOf(audience: PostAudience | { kind: string }): FederationAudience | null {
  const known = audience.kind === 'account' || audience.kind === 'page' || audience.kind === 'group';
  return known && 'isPrivate' in audience ? federationScopeOf(audience as PostAudience) : null;
}

/** The largest remote document (actor, outbox, note, WebFinger answer) Plaza reads: 1 MB. */
export const REMOTE_DOCUMENT_MAX_BYTES = 1024 * 1024;

/** Delivery retries: 30 s after the first failure, doubling, 10 attempts in all (about 4 h 15 min). */
export const DELIVERY_MAX_ATTEMPTS = 10;
export function retryDelaySeconds(attempts: number): number {
  return 30 * 2 ** Math.max(0, attempts - 1);
}
