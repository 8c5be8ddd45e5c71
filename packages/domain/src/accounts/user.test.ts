import { describe, expect, it } from 'vitest';
import { isModerator, isTechnician, rolesOf } from './user.js';

describe('role hierarchy', () => {
  const account = (flags: Partial<{ is_admin: boolean; is_moderator: boolean; is_technician: boolean }> = {}) => ({
    id: 7,
    is_admin: false,
    is_moderator: false,
    is_technician: false,
    ...flags,
  });

  it('makes an admin a moderator and a technician, and nothing else implies another role', () => {
    expect(rolesOf(account({ is_admin: true }))).toEqual({ admin: true, moderator: true, technician: true });
    expect(rolesOf(account({ is_moderator: true }))).toEqual({ admin: false, moderator: true, technician: false });
    expect(rolesOf(account({ is_technician: true }))).toEqual({ admin: false, moderator: false, technician: true });
    expect(rolesOf(account())).toEqual({ admin: false, moderator: false, technician: false });
    expect(isModerator(account({ is_admin: true }))).toBe(true);
  });

  it('counts the accounts MEDIA_TECHNICIAN_USER_IDS lists as technicians', () => {
    expect(isTechnician(account(), [7])).toBe(true);
    expect(isTechnician(account(), [8])).toBe(false);
    expect(rolesOf(account(), [7])).toEqual({ admin: false, moderator: false, technician: true });
  });
});
