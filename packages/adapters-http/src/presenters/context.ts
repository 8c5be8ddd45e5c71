import type { RoleFlags, Roles } from '@plaza/domain/accounts';
import type { TimeFormatter } from '../http/time-format.js';

/**
 * What presenters need besides the data: how to write times for this instance, what time it is, and
 * which roles an account holds.
 */
export interface PresenterContext {
  formatTime: TimeFormatter;
  /** The server's Clock, so that derived flags such as is_online follow it in tests too. */
  now(): Date;
  /**
   * The domain's `rolesOf` with this instance's MEDIA_TECHNICIAN_USER_IDS: every role flag on the wire
   * (is_admin, is_moderator, is_technician, is_militant_technician) comes from it.
   */
  roles(u: RoleFlags): Roles;
}

const ONLINE_WINDOW_MS = 5 * 60_000;

/** Online means active within the last five minutes (last activity is written on authentication). */
export function isOnline(lastActiveAt: string | null, p: PresenterContext): boolean {
  if (!lastActiveAt) return false;
  return p.now().getTime() - Date.parse(lastActiveAt.replace(' ', 'T') + 'Z') < ONLINE_WINDOW_MS;
}
