import { beforeEach, describe, expect, it } from 'vitest';
import type { AuthInvalidation } from '../auth-invalidation.js';

/**
 * The session-change signal (docs/decisions/0150), fake or real. `make` gives two handles on one
 * shared signal, as two processes over one database (or one Redis) have.
 */
export function authInvalidationContract(name: string, make: () => Promise<{ signal: AuthInvalidation; other: AuthInvalidation }>) {
  describe(`${name}: session-change signal contract`, () => {
    let signal: AuthInvalidation;
    let other: AuthInvalidation;
    beforeEach(async () => {
      ({ signal, other } = await make());
    });

    it('a new cursor lists nothing published before it, and what is published after it once', async () => {
      await signal.publish(7);
      const start = await other.changedSince(null);
      expect(start.userIds).toEqual([]);
      expect((await other.changedSince(start.cursor)).userIds).toEqual([]);
      await signal.publish(11);
      await signal.publish(12);
      const first = await other.changedSince(start.cursor);
      expect(first.everyone).toBe(false);
      expect([...first.userIds].sort((x, y) => x - y)).toEqual([11, 12]);
      const again = await other.changedSince(first.cursor);
      expect(again.userIds).toEqual([]);
      await other.publish(11);
      expect((await signal.changedSince(first.cursor)).userIds).toEqual([11]);
    });

    it('misses none of twenty publications made at once while another handle reads', async () => {
      let cursor = (await other.changedSince(null)).cursor;
      const seen: number[] = [];
      let publishing = true;
      const reader = (async () => {
        while (publishing) {
          const changes = await other.changedSince(cursor);
          expect(changes.everyone).toBe(false);
          seen.push(...changes.userIds);
          cursor = changes.cursor;
        }
      })();
      await Promise.all(Array.from({ length: 20 }, (_, i) => signal.publish(100 + i)));
      publishing = false;
      await reader;
      const last = await other.changedSince(cursor);
      seen.push(...last.userIds);
      expect([...new Set(seen)].sort((x, y) => x - y)).toEqual(Array.from({ length: 20 }, (_, i) => 100 + i));
      expect(seen.length).toBe(20);
      expect((await other.changedSince(last.cursor)).userIds).toEqual([]);
    });
  });
}
