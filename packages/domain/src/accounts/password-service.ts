import type { Actor } from '../shared/actor.js';
import type { Clock } from '../shared/clock.js';
import { Conflict, Forbidden, NotFound, Unauthenticated } from '../shared/errors.js';
import { toTimestamp } from '../shared/time.js';
import type { UnitOfWork } from '../shared/unit-of-work.js';
import { assertPasswordStrength } from './auth-service.js';
import type { AccessTokenRepository, PasswordHasher, SecretTokens, UserRepository } from './ports.js';

/** change_password.php: a signed-in user sets a new password, proving the current one. */
export class PasswordService {
  constructor(
    private readonly users: UserRepository,
    private readonly tokens: AccessTokenRepository,
    private readonly hasher: PasswordHasher,
    private readonly secrets: SecretTokens,
    private readonly clock: Clock,
    private readonly uow: UnitOfWork,
  ) {}

  /**
   * Sets the new password and ends every other session of the account, together; the session that
   * asked (`presentedToken`) stays signed in. A wrong current password is a 403 and changes nothing.
   * Returns how many other sessions were ended.
   */
  async change(
    actor: Actor,
    input: { current_password: string; new_password: string },
    presentedToken: string,
  ): Promise<{ revoked_sessions: number }> {
    assertPasswordStrength(input.new_password);
    const user = await this.users.findWithSecrets(actor.userId);
    if (!user) throw new NotFound('User not found', 'user_not_found');
    if (!(await this.hasher.verify(input.current_password, user.password_hash))) {
      throw new Forbidden('The current password is wrong', 'wrong_password');
    }
    const now = toTimestamp(this.clock.now());
    const session = await this.tokens.findActive(this.secrets.hash(presentedToken), now);
    if (!session || session.user_id !== user.id) throw new Unauthenticated('Invalid or expired token', 'invalid_token');
    // Hashed before the unit: bcrypt takes tens of milliseconds, no transaction should wait on it.
    const hash = await this.hasher.hash(input.new_password);
    return this.uow.run(async () => {
      // Conditional on the hash just verified: of concurrent changes only the first applies; the
      // others proved a password that is no longer the current one.
      if (!(await this.users.replacePasswordHash(user.id, user.password_hash, hash))) {
        throw new Conflict('The password was changed meanwhile; sign in again with the new one', 'password_changed');
      }
      return { revoked_sessions: await this.tokens.revokeOthers(user.id, session.id, now) };
    });
  }
}
