import { RateLimited } from '@plaza/domain';
import { describe, expect, it } from 'vitest';
import { RefusedAddresses } from './refused-addresses.js';

describe('RefusedAddresses', () => {
  it('refuses an address again in the group that refused it, and in no other', () => {
    const refused = new RefusedAddresses();
    expect(refused.knows('198.51.100.1')).toBe(false);
    refused.remember('default', '198.51.100.1', new RateLimited(60, { limit: 3, remaining: 0, reset: 1 }));
    expect(refused.knows('198.51.100.1')).toBe(true);
    expect(refused.refusalOf('default', '198.51.100.1')?.retryAfterSeconds).toBe(60);
    expect(refused.refusalOf('auth', '198.51.100.1')).toBeNull();
    expect(refused.refusalOf('default', '198.51.100.2')).toBeNull();
  });

  it('forgets a refusal once its window has reset', () => {
    const refused = new RefusedAddresses();
    refused.remember('posts', '198.51.100.3', new RateLimited(0));
    expect(refused.refusalOf('posts', '198.51.100.3')).toBeNull();
    expect(refused.knows('198.51.100.3')).toBe(false);
  });
});
