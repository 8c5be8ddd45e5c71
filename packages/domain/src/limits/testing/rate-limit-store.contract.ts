import { describe, expect, it } from 'vitest';
import type { RateLimitStore } from '../rate-limit.js';

export function rateLimitStoreContract(name: string, make: () => Promise<RateLimitStore>) {
  describe(`${name}: rate-limit store contract`, () => {
    it('counts hits per key and window', async () => {
      const store = await make();
      const key = `k-${Math.random()}`;
      expect(await store.hit(key, 3600)).toBe(1);
      expect(await store.hit(key, 3600)).toBe(2);
      expect(await store.hit(`${key}-other`, 3600)).toBe(1);
      expect(await store.hit(key, 7200)).toBe(1);
    });

    it('counts concurrent hits without losing any', async () => {
      const store = await make();
      const key = `c-${Math.random()}`;
      const counts = await Promise.all(Array.from({ length: 20 }, () => store.hit(key, 3600)));
      expect([...counts].sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    });

    it('purges ended windows', async () => {
      const store = await make();
      const key = `p-${Math.random()}`;
      await store.hit(key, 3600);
      await store.purge(7200);
      expect(await store.hit(key, 3600)).toBe(1);
    });
  });
}
