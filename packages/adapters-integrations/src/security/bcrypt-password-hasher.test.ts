import { describe, expect, it } from 'vitest';
import { BcryptPasswordHasher } from './bcrypt-password-hasher.js';

describe('BcryptPasswordHasher', () => {
  const hasher = new BcryptPasswordHasher(4);

  it('writes $2y$ hashes that it verifies', async () => {
    const hash = await hasher.hash('s3cret pass');
    expect(hash.startsWith('$2y$04$')).toBe(true);
    expect(await hasher.verify('s3cret pass', hash)).toBe(true);
    expect(await hasher.verify('wrong', hash)).toBe(false);
  });

  it("verifies a hash made by PHP's password_hash()", async () => {
    // The example hash of the PHP manual's password_verify() page.
    const php = '$2y$10$.vGA1O9wmRjrwAVXD98HNOgsNpDczlqm3Jq7KnEd1rVAGv3Fykk1a';
    expect(await hasher.verify('rasmuslerdorf', php)).toBe(true);
    expect(await hasher.verify('Rasmuslerdorf', php)).toBe(false);
  });

  it('refuses anything that is not a bcrypt hash', async () => {
    expect(await hasher.verify('x', 'plain:x')).toBe(false);
    expect(await hasher.verify('x', '')).toBe(false);
  });
});
