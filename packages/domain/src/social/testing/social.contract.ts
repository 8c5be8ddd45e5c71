import { describe, expect, it } from 'vitest';
import type { UserRepository } from '../../accounts/ports.js';
import type { FollowRepository } from '../ports.js';
import { aNewUser } from '../../shared/testing/mothers.js';

export function followRepositoryContract(name: string, make: () => Promise<{ users: UserRepository; follows: FollowRepository }>) {
  describe(`${name}: follow repository contract`, () => {
    it('follows once, unfollows once', async () => {
      const { users, follows } = await make();
      const a = await users.create(aNewUser());
      const b = await users.create(aNewUser());
      expect(await follows.follow(a.id, b.id, '2026-01-01 00:00:00')).toBe(true);
      expect(await follows.follow(a.id, b.id, '2026-01-01 00:00:01')).toBe(false);
      expect(await follows.isFollowing(a.id, b.id)).toBe(true);
      expect(await follows.isFollowing(b.id, a.id)).toBe(false);
      expect(await follows.unfollow(a.id, b.id)).toBe(true);
      expect(await follows.unfollow(a.id, b.id)).toBe(false);
      expect(await follows.isFollowing(a.id, b.id)).toBe(false);
    });
  });
}
