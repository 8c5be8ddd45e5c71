import type { UserRecord } from '@plaza/domain';
import { isOnline, type PresenterContext } from './context.js';

/** An entry of the followers, following and friends lists (contract §13, §14). */
export function presentUserListItem(u: UserRecord, p: PresenterContext) {
  return {
    id: u.id,
    user_id: u.id,
    username: u.username,
    display_name: u.display_name ?? u.username,
    avatar: u.avatar ?? 'default.svg',
    bio: u.bio ?? '',
    is_online: isOnline(u.last_active_at, p),
    militant_badge: u.militant_badge,
    is_militant_technician: u.is_technician || u.is_admin,
  };
}
