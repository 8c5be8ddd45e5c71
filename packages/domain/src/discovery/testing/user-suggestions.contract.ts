import { describe, expect, it } from 'vitest';
import type { UserRepository } from '../../accounts/ports.js';
import { aNewUser } from '../../accounts/testing/mothers.js';
import type { FollowRepository } from '../../social/ports.js';
import type { UserSuggestions } from '../suggestions.js';

export interface UserSuggestionPorts {
  users: UserRepository;
  follows: FollowRepository;
  suggestions: UserSuggestions;
}

const AT = '2026-03-01 00:00:00';
const page = (p: number, perPage = 50) => ({ page: p, perPage });

/** What every UserSuggestions adapter guarantees. */
export function userSuggestionsContract(name: string, make: () => Promise<UserSuggestionPorts>) {
  describe(`${name}: user suggestions contract`, () => {
    it('suggests the newest accounts, never the viewer or followed accounts, and pages them', async () => {
      const { users, follows, suggestions } = await make();
      const viewer = await users.create(aNewUser());
      const [followed, a, b] = [await users.create(aNewUser()), await users.create(aNewUser()), await users.create(aNewUser())];
      await follows.follow(viewer.id, followed.id, AT);
      const newest = await suggestions.newest(viewer.id, page(1));
      expect(newest.slice(0, 2)).toEqual([b.id, a.id]);
      for (const hidden of [viewer.id, followed.id]) expect(newest).not.toContain(hidden);
      expect(await suggestions.newest(viewer.id, page(1, 1))).toEqual([b.id]);
      expect(await suggestions.newest(viewer.id, page(2, 1))).toEqual([a.id]);
    });

    it('finds the accounts of the same cause whatever its case, and picks at random without the excluded', async () => {
      const { users, follows, suggestions } = await make();
      const cause = `Climate ${Math.random().toString(36).slice(2)}`;
      const viewer = await users.create(aNewUser());
      const [same, other, followedSame] = [await users.create(aNewUser()), await users.create(aNewUser()), await users.create(aNewUser())];
      await users.updateProfile(same.id, { cause: cause.toUpperCase() });
      await users.updateProfile(followedSame.id, { cause });
      await users.updateProfile(other.id, { cause: 'something else' });
      await follows.follow(viewer.id, followedSame.id, AT);
      expect(await suggestions.sameCause(viewer.id, cause.toLowerCase(), page(1))).toEqual([same.id]);

      const picked = await suggestions.random(viewer.id, 1000, [other.id]);
      expect(picked).toContain(same.id);
      for (const hidden of [viewer.id, followedSame.id, other.id]) expect(picked).not.toContain(hidden);
      expect(new Set(picked).size).toBe(picked.length);
      expect(await suggestions.random(viewer.id, 1, [])).toHaveLength(1);
    });
  });
}
