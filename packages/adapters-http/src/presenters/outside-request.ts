import type { OutsideRequestView } from '@plaza/domain/social';
import { z } from 'zod';
import type { PresenterContext } from './context.js';
import { PendingRequestItem } from './social.js';
import { wireTime } from './wire.js';

/**
 * A follow request from a remote account in friends.php's pending list (docs/decisions/0210): the
 * local request's shape, with what a remote account is instead of a user id. It has no user id, so
 * `id`, `user_id` and `request_id` are the request's id negated, which no local id is; the added
 * fields say who asked (`is_remote`, `actor_url`, `handle`, `profile_url`).
 */
export const OutsideRequestItem = PendingRequestItem.extend({
  id: z.number().int().negative(),
  user_id: z.number().int().negative(),
  request_id: z.number().int().negative(),
  is_remote: z.literal(true),
  account_type: z.literal('remote'),
  actor_url: z.string().url(),
  handle: z.string(),
  profile_url: z.string(),
});

export function presentOutsideRequest(r: OutsideRequestView, p: PresenterContext): z.input<typeof OutsideRequestItem> {
  const who = r.requester;
  return {
    id: -r.id,
    user_id: -r.id,
    request_id: -r.id,
    // The handle without its leading @: the list shows it where a local username would be.
    username: who.handle.replace(/^@/, ''),
    display_name: who.display_name,
    avatar: who.avatar ?? 'default.svg',
    bio: who.summary,
    is_online: false,
    militant_badge: null,
    is_militant_technician: false,
    created_at: wireTime(p, r.created_at),
    is_remote: true,
    account_type: 'remote',
    actor_url: who.actor_url,
    handle: who.handle,
    profile_url: who.profile_url,
  };
}
