import { availableParallelism } from 'node:os';
import { hash as bcryptHash, verify as bcryptVerify } from '@node-rs/bcrypt';
import type { PasswordHasher } from '@plaza/domain/accounts';

/**
 * bcrypt, interchangeable with PHP's password_hash(): hashes are written as `$2y$` (PHP's label of the
 * same algorithm) and `$2a$`/`$2b$`/`$2y$` hashes are verified alike. The work runs in native code on
 * libuv's thread pool (@node-rs/bcrypt), never on the event loop (docs/decisions/0072).
 *
 * At most `concurrency` hashes run at once (by default one core fewer than the machine has, at least
 * one): with as many hashing threads as cores, the event loop would wait for a core between two
 * requests, and a burst of logins would slow every other request of the process. The others wait in
 * order. More processes (API_WORKERS) hash on more cores.
 */
export class BcryptPasswordHasher implements PasswordHasher {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    private readonly cost = 10,
    private readonly concurrency = Math.max(1, availableParallelism() - 1),
  ) {}

  async hash(password: string): Promise<string> {
    return this.limited(() => bcryptHash(password, { cost: this.cost, version: '2y' }));
  }

  async verify(password: string, hash: string): Promise<boolean> {
    if (!/^\$2[abxy]\$\d{2}\$/.test(hash)) return false;
    try {
      return await this.limited(() => bcryptVerify(password, hash));
    } catch {
      return false;
    }
  }

  private async limited<T>(work: () => Promise<T>): Promise<T> {
    if (this.running >= this.concurrency) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.running += 1;
    try {
      return await work();
    } finally {
      const next = this.waiting.shift();
      // The slot passes to the next waiter as it is; without one, it is freed.
      if (next) next();
      else this.running -= 1;
    }
  }
}
