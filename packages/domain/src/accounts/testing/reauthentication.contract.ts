import { beforeEach, describe, expect, it } from 'vitest';
import type { AccessTokenRepository, UserRepository } from '../ports.js';
import type { ReauthenticationAttempts } from '../reauthentication.js';
import { aNewUser } from './mothers.js';

export interface ReauthenticationPorts {
  users: UserRepository;
  tokens: AccessTokenRepository;
  attempts: ReauthenticationAttempts;
}

/** Re-authentication's ports (docs/decisions/0112), fake or SQL: the attempts' lock and the tokens' record of their login. */
export function reauthenticationContract(name: string, make: () => Promise<ReauthenticationPorts>) {
  describe(`${name}: re-authentication ports contract`, () => {
    let ports: ReauthenticationPorts;
    beforeEach(async () => {
      ports = await make();
    });

    it('counts attempts up to the limit, then refuses until the window after the last one has passed', async () => {
      const u = await ports.users.create(aNewUser());
      const other = await ports.users.create(aNewUser());
      const at = (minute: number) => `2026-01-01 10:${String(minute).padStart(2, '0')}:00`;
      // windowStart is 15 minutes before the attempt.
      const claim = (userId: number, minute: number) => ports.attempts.claim(userId, at(minute), at(minute - 15), 3);
      expect(await claim(u.id, 16)).toBe(true);
      expect(await claim(u.id, 17)).toBe(true);
      expect(await ports.attempts.lockedSince(u.id, at(3), 3)).toBeNull();
      expect(await claim(u.id, 18)).toBe(true);
      expect(await claim(u.id, 19)).toBe(false);
      expect(await ports.attempts.lockedSince(u.id, at(4), 3)).toBe(at(18));
      expect(await claim(other.id, 19)).toBe(true);
      // The refused attempt did not move the lock: it ends 15 minutes after the third.
      expect(await claim(u.id, 32)).toBe(false);
      expect(await ports.attempts.lockedSince(u.id, at(17), 3)).toBe(at(18));
      expect(await ports.attempts.lockedSince(u.id, at(18), 3)).toBeNull();
      expect(await claim(u.id, 34)).toBe(true);
      expect(await claim(u.id, 35)).toBe(true);
      expect(await claim(u.id, 36)).toBe(true);
      expect(await claim(u.id, 37)).toBe(false);
      await ports.attempts.clear(u.id);
      expect(await ports.attempts.lockedSince(u.id, at(22), 3)).toBeNull();
      expect(await claim(u.id, 38)).toBe(true);
    });

    it('lets exactly the limit through of attempts made at once', async () => {
      const u = await ports.users.create(aNewUser());
      const answers = await Promise.all(
        Array.from({ length: 12 }, () => ports.attempts.claim(u.id, '2026-01-01 10:00:00', '2026-01-01 09:45:00', 5)),
      );
      expect(answers.filter(Boolean)).toHaveLength(5);
    });

    it("keeps how a token's login authenticated, and none for a token no login issued", async () => {
      const u = await ports.users.create(aNewUser());
      const authentication = { at: '2026-01-01 10:00:00', factors: 'second_factor' as const };
      await ports.tokens.create({
        user_id: u.id,
        token_hash: 'x'.repeat(64),
        created_at: '2026-01-01 10:00:00',
        expires_at: '2027-01-01 00:00:00',
        authentication,
      });
      await ports.tokens.create({
        user_id: u.id,
        token_hash: 'y'.repeat(64),
        created_at: '2026-01-01 10:00:00',
        expires_at: '2027-01-01 00:00:00',
      });
      expect((await ports.tokens.findActive('x'.repeat(64), '2026-01-02 00:00:00'))?.authentication).toEqual(authentication);
      expect((await ports.tokens.findActive('y'.repeat(64), '2026-01-02 00:00:00'))?.authentication).toBeNull();
    });
  });
}
