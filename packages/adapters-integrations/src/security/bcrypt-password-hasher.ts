import bcrypt from 'bcryptjs';
import type { PasswordHasher } from '@plaza/domain/accounts';

/**
 * bcrypt, interchangeable with PHP's password_hash(): bcryptjs writes `$2b$`, the same algorithm PHP
 * labels `$2y$`, so hashes are stored as `$2y$` for the PHP application to keep reading them.
 */
export class BcryptPasswordHasher implements PasswordHasher {
  constructor(private readonly cost = 10) {}

  async hash(password: string): Promise<string> {
    const hash = await bcrypt.hash(password, this.cost);
    return hash.replace(/^\$2b\$/, '$2y$');
  }

  async verify(password: string, hash: string): Promise<boolean> {
    if (!/^\$2[abxy]\$\d{2}\$/.test(hash)) return false;
    try {
      return await bcrypt.compare(password, hash.replace(/^\$2y\$/, '$2b$'));
    } catch {
      return false;
    }
  }
}
