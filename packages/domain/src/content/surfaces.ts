import type { SurfaceKind } from './engagement-events.js';
import type { PostAudience } from './visibility.js';

/** The surface a post's audience belongs to: an account's wall, a page, a community group. */
export function surfaceOf(audience: PostAudience): SurfaceKind {
  return audience.kind === 'account' ? 'wall' : audience.kind;
}

/** Whom a post of a surface may be delivered to outside this server, if anyone. */
export type FederationScope = 'public' | 'followers';

/**
 * Which surfaces federate (docs/decisions/0050, 0120), the one place to change it. A wall post does:
 * to the public, or to the followers alone for a private account. A page's posts do not yet: a public
 * page's may, once the fediverse issue asks for it (answer `public` here for `!isPrivate`; a private
 * page's never leave its team). A group's never, without a decision of their own: a private group's
 * content is its members' only, and a public group has no actor to send it as.
 */
export const SURFACE_FEDERATION: { readonly [S in SurfaceKind]: (audience: { isPrivate: boolean }) => FederationScope | null } = {
  wall: ({ isPrivate }) => (isPrivate ? 'followers' : 'public'),
  page: () => null,
  group: () => null,
};

/** Whom a post with this audience federates to, by its surface's rule; null: it stays on this server. */
export function federationScopeOf(audience: PostAudience): FederationScope | null {
  return SURFACE_FEDERATION[surfaceOf(audience)](audience);
}
