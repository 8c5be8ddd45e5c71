import type { UserRecord } from '@plaza/domain';

const ONLINE_WINDOW_MS = 5 * 60_000;

export function isOnline(u: Pick<UserRecord, 'last_active_at'>): boolean {
  const lastActive = u.last_active_at ? Date.parse(u.last_active_at.replace(' ', 'T') + 'Z') : 0;
  return lastActive > 0 && Date.now() - lastActive < ONLINE_WINDOW_MS;
}

/** An entry of the followers, following and friends lists (contract §13, §14). */
export function presentUserListItem(u: UserRecord) {
  return {
    id: u.id,
    user_id: u.id,
    username: u.username,
    display_name: u.display_name ?? u.username,
    avatar: u.avatar ?? 'default.svg',
    bio: u.bio ?? '',
    is_online: isOnline(u),
    militant_badge: u.militant_badge,
    is_militant_technician: u.is_technician || u.is_admin,
  };
}
