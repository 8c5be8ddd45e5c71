import type { UserRecord } from '@plaza/domain/accounts';
import { z } from 'zod';
import { isOnline, type PresenterContext } from './context.js';
import { zAvatar } from './user.js';
import { avatarOf, zWireId } from './wire.js';

/** An account suggested by discover.php (contract §16): `id` as a number, the avatar or `default.svg`. */
export const DiscoverUserItem = z.object({
  id: zWireId,
  username: z.string().min(1),
  display_name: z.string(),
  avatar: zAvatar,
  bio: z.string(),
  cause: z.string().nullable(),
  is_online: z.boolean(),
  militant_badge: z.string().nullable(),
});

/** `u` as its viewer may see it (asSeenBy): a hidden online status reads as offline. */
export function presentDiscoverUser(u: UserRecord, p: PresenterContext): z.input<typeof DiscoverUserItem> {
  return {
    id: u.id,
    username: u.username,
    display_name: u.display_name ?? u.username,
    avatar: avatarOf(u),
    bio: u.bio ?? '',
    cause: u.cause,
    is_online: isOnline(u.last_active_at, p),
    militant_badge: u.militant_badge,
  };
}
