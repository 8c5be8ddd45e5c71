import { availableParallelism } from 'node:os';
import type { PasswordHasher } from '@plaza/domain/accounts';
import { BcryptThreads } from './bcrypt-threads.js';

/** The process's hashing threads: one core fewer than the machine has, at least one (see below). */
let shared: BcryptThreads | undefined;

/**
 * bcrypt, interchangeable with PHP's password_hash(): hashes are written as `$2y$` (PHP's label of the
 * same algorithm) and `$2a$`/`$2b$`/`$2y$` hashes are verified alike. The work runs in native code
 * (@node-rs/bcrypt) on threads of its own at the lowest priority, never on the event loop
 * (docs/decisions/0072, 0073).
 *
 * At most `concurrency` hashes of a process run at once (by default one core fewer than the machine
 * has, at least one, on threads every hasher of the process shares): more processes (API_WORKERS)
 * hash on more cores. The others wait in order.
 */
export class BcryptPasswordHasher implements PasswordHasher {
  private readonly threads: BcryptThreads;

  constructor(
    private readonly cost = 10,
    concurrency?: number,
  ) {
    this.threads =
      concurrency === undefined ? (shared ??= new BcryptThreads(Math.max(1, availableParallelism() - 1))) : new BcryptThreads(concurrency);
  }

  async hash(password: string): Promise<string> {
    return this.threads.hash(password, this.cost);
  }

  async verify(password: string, hash: string): Promise<boolean> {
    if (!/^\$2[abxy]\$\d{2}\$/.test(hash)) return false;
    try {
      return await this.threads.verify(password, hash);
    } catch {
      return false;
    }
  }
}
