import { describe, expect, it } from 'vitest';
import { NO_RELATION } from './model.js';
import { canSeeGroup, canSeeGroupContent, groupLink } from './visibility.js';

describe('the group visibility rule', () => {
  const pub = { privacy: 'public' as const };
  const priv = { privacy: 'private' as const };
  it('shows a public group and its content to everyone', () => {
    expect(canSeeGroupContent(pub, NO_RELATION)).toBe(true);
    expect(canSeeGroup(pub, NO_RELATION)).toBe(true);
  });
  it('shows a private group’s content to members only, its card also to invitees and requesters', () => {
    for (const role of ['admin', 'member'] as const) expect(canSeeGroupContent(priv, { ...NO_RELATION, role })).toBe(true);
    expect(canSeeGroupContent(priv, NO_RELATION)).toBe(false);
    expect(canSeeGroupContent(priv, { ...NO_RELATION, invited: true })).toBe(false);
    expect(canSeeGroupContent(priv, { ...NO_RELATION, requested: true })).toBe(false);
    expect(canSeeGroup(priv, { ...NO_RELATION, invited: true })).toBe(true);
    expect(canSeeGroup(priv, { ...NO_RELATION, requested: true })).toBe(true);
    expect(canSeeGroup(priv, NO_RELATION)).toBe(false);
  });
  it('links a group and a post the way the clients parse them', () => {
    expect(groupLink(12)).toBe('group_detail.php?id=12');
    expect(groupLink(12, 7)).toBe('group_detail.php?id=12#post-7');
  });
});
