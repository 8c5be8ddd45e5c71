import { describe, expect, it } from 'vitest';
import type { Actor } from '../shared/actor.js';
import { type AccountAction, refusal } from './account-moderation.js';

const actor = (userId: number, role: 'member' | 'moderator' | 'admin'): Actor => ({
  userId,
  username: `u${userId}`,
  isAdmin: role === 'admin',
  isModerator: role !== 'member',
  isTechnician: role === 'admin',
});
const account = (id: number, role: 'member' | 'moderator' | 'admin') => ({
  id,
  is_admin: role === 'admin',
  is_moderator: role === 'moderator',
});
const codeOf = (a: Actor, target: ReturnType<typeof account>, action: AccountAction) => refusal(a, target, action)?.code ?? 'allowed';

describe('who may act on an account from the admin panel (docs/decisions/0105)', () => {
  const member = account(10, 'member');

  it('lets moderators suspend and unsuspend members, and only administrators delete or reset two-factor', () => {
    const mod = actor(1, 'moderator');
    const admin = actor(2, 'admin');
    expect(['suspend', 'unsuspend', 'delete', 'reset_two_factor'].map((a) => codeOf(mod, member, a as AccountAction))).toEqual([
      'allowed',
      'allowed',
      'not_admin',
      'not_admin',
    ]);
    expect(['suspend', 'unsuspend', 'delete', 'reset_two_factor'].map((a) => codeOf(admin, member, a as AccountAction))).toEqual([
      'allowed',
      'allowed',
      'allowed',
      'allowed',
    ]);
    expect(codeOf(actor(3, 'member'), member, 'suspend')).toBe('not_moderator');
  });

  it('refuses one’s own account, an administrator (but for a two-factor reset), and a moderator unless the actor is an administrator', () => {
    const mod = actor(1, 'moderator');
    const admin = actor(2, 'admin');
    expect(codeOf(mod, account(1, 'moderator'), 'suspend')).toBe('own_account');
    expect(codeOf(admin, account(2, 'admin'), 'reset_two_factor')).toBe('own_account');
    expect(codeOf(admin, account(5, 'admin'), 'suspend')).toBe('target_is_admin');
    expect(codeOf(admin, account(5, 'admin'), 'delete')).toBe('target_is_admin');
    expect(codeOf(admin, account(5, 'admin'), 'reset_two_factor')).toBe('allowed');
    expect(codeOf(mod, account(6, 'moderator'), 'suspend')).toBe('target_is_moderator');
    expect(codeOf(admin, account(6, 'moderator'), 'suspend')).toBe('allowed');
  });
});
