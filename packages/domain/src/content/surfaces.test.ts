import { describe, expect, it } from 'vitest';
import { federationScopeOf, surfaceOf } from './surfaces.js';

describe('the surfaces’ federation rule (docs/decisions/0050, 0120)', () => {
  it('sends a wall post to the public, or to a private account’s followers alone', () => {
    expect(federationScopeOf({ kind: 'account', authorId: 1, isPrivate: false })).toBe('public');
    expect(federationScopeOf({ kind: 'account', authorId: 1, isPrivate: true })).toBe('followers');
  });

  it('keeps page posts local for now, public page or not, and group posts always', () => {
    expect(federationScopeOf({ kind: 'page', pageId: 1, isPrivate: false })).toBeNull();
    expect(federationScopeOf({ kind: 'page', pageId: 1, isPrivate: true })).toBeNull();
    expect(federationScopeOf({ kind: 'group', groupId: 1, isPrivate: false })).toBeNull();
    expect(federationScopeOf({ kind: 'group', groupId: 1, isPrivate: true })).toBeNull();
  });

  it('names each audience’s surface', () => {
    expect(surfaceOf({ kind: 'account', authorId: 1, isPrivate: false })).toBe('wall');
    expect(surfaceOf({ kind: 'page', pageId: 1, isPrivate: false })).toBe('page');
    expect(surfaceOf({ kind: 'group', groupId: 1, isPrivate: true })).toBe('group');
  });
});
