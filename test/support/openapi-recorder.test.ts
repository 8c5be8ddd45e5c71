import { describe, expect, it } from 'vitest';
import { normalise } from './openapi-recorder.js';

describe('the OpenAPI example recorder (docs/decisions/0171)', () => {
  it('replaces tokens, secrets, passwords, times and generated names, and cuts lists', () => {
    const recorded = normalise({
      token: 'Zx9_kq2LmN4pQr7sT1uV3wX5yA8bC0dE6fG2hJ4kL6m',
      token_type: 'Bearer',
      password: 'hunter2 but longer',
      recovery_codes: ['abcd-efgh-ijkl', 'mnop-qrst-uvwx', 'yzab-cdef-ghij'],
      created_at: '2026-11-27 04:01:02',
      sent: '2026-11-27T04:01:02.123Z',
      username: 'u12_ab3d9f',
      email: 'U12_AB3D9F@example.test',
      posts: [{ id: 1 }, { id: 2 }, { id: 3 }],
      content: 'a post that stays as it was',
      count: 3,
    });
    expect(recorded).toEqual({
      token: 'example-token',
      token_type: 'Bearer',
      password: 'correct horse battery',
      recovery_codes: ['example-recovery-codes', 'example-recovery-codes'],
      created_at: '2026-01-01 12:00:00',
      sent: '2026-01-01T12:00:00.000Z',
      username: 'alice',
      email: 'alice@example.test',
      posts: [{ id: 1 }, { id: 2 }],
      content: 'a post that stays as it was',
      count: 3,
    });
  });
});
