import type { UserRecord } from '@plaza/domain/accounts';
import type { PendingRequestView } from '@plaza/domain/social';
import { z } from 'zod';
import { isOnline, type PresenterContext } from './context.js';
import { zAvatar } from './user.js';
import { zTimestamp, zWireId, wireTime } from './wire.js';

/** An entry of the followers, following and friends lists (contract §13, §14). */
export const UserListItem = z.object({
  id: zWireId,
  user_id: zWireId,
  username: z.string(),
  display_name: z.string(),
  avatar: zAvatar,
  bio: z.string(),
  is_online: z.boolean(),
  militant_badge: z.string().nullable(),
  is_militant_technician: z.boolean(),
});

export function presentUserListItem(u: UserRecord, p: PresenterContext): z.input<typeof UserListItem> {
  return {
    id: u.id,
    user_id: u.id,
    username: u.username,
    display_name: u.display_name ?? u.username,
    avatar: u.avatar ?? 'default.svg',
    bio: u.bio ?? '',
    is_online: isOnline(u.last_active_at, p),
    militant_badge: u.militant_badge,
    is_militant_technician: p.roles(u).technician,
  };
}

/** A received friend request (contract §14): the requesting user's list item, `id` being theirs, plus the request. */
export const PendingRequestItem = UserListItem.extend({
  request_id: zWireId,
  created_at: zTimestamp,
});

export function presentPendingRequest(r: PendingRequestView, p: PresenterContext): z.input<typeof PendingRequestItem> {
  return { ...presentUserListItem(r.user, p), request_id: r.request_id, created_at: wireTime(p, r.created_at) };
}
