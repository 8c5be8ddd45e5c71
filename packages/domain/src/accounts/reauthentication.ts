import type { Clock } from '../shared/clock.js';
import { Forbidden, Invalid, RateLimited } from '../shared/errors.js';
import { addSeconds, fromTimestamp, toTimestamp, type Timestamp } from '../shared/time.js';
import { token } from '../shared/token.js';
import type { AccessTokenRepository, PasswordHasher, SecretTokens } from './ports.js';
import type { SecondFactor } from './two-factor.js';
import type { UserWithSecrets } from './user.js';

/**
 * Operations that remove a protection (turning two-factor off, new recovery codes, a new e-mail
 * address) ask for more than the bearer token (docs/decisions/0112): the password (and, where the
 * operation says so, a second-factor code) in the request, or else "sudo mode", a token whose login
 * passed every factor of the account within the last `SUDO_MODE_MINUTES`.
 */
export const SUDO_MODE_MINUTES = 10;
/** Wrong proofs in a row (each within `REAUTHENTICATION_LOCK_MINUTES` of the last) that lock the operations. */
export const REAUTHENTICATION_ATTEMPT_LIMIT = 5;
export const REAUTHENTICATION_LOCK_MINUTES = 15;

/**
 * How the login behind a token authenticated, recorded on the token. A refreshed token carries its
 * predecessor's, so refreshing never extends sudo mode past the original login's time.
 */
export interface TokenAuthentication {
  at: Timestamp;
  /** `second_factor`: password and a TOTP or recovery code; `password`: the password alone. */
  factors: 'password' | 'second_factor';
}

/**
 * Proofs counted per account, so that a stolen token cannot guess the password or a code: at most
 * `limit` of them within a lock window, correct or not, before the lock; a correct one clears them.
 */
export interface ReauthenticationAttempts {
  /**
   * Counts one attempt, unless `limit` attempts were counted, none of them before `windowStart`
   * (the lock is in force): false then. One conditional write, so that concurrent attempts never
   * pass the limit. An attempt that follows the last one by more than the window starts over at one.
   */
  claim(userId: number, now: Timestamp, windowStart: Timestamp, limit: number): Promise<boolean>;
  /** When the lock is in force, the time of the last attempt it counted; null otherwise. */
  lockedSince(userId: number, windowStart: Timestamp, limit: number): Promise<Timestamp | null>;
  /** Forgets the account's attempts: a proof succeeded. */
  clear(userId: number): Promise<void>;
}
export const ReauthenticationAttempts = token<ReauthenticationAttempts>('ReauthenticationAttempts');

/** What a request offers beyond its token; any of them may be absent. */
export interface ReauthenticationProof {
  /** The request's bearer token, for sudo mode (the library has none: it sends the password). */
  session?: string | null;
  password?: string | null;
  /** A current TOTP code or an unused recovery code, for operations that ask for the second factor. */
  code?: string | null;
}

export const reauthenticationRequired = () =>
  new Forbidden(
    `Please log in again to confirm it is you (your last login is more than ${SUDO_MODE_MINUTES} minutes old), or send your password with the request`,
    'reauthentication_required',
  );

export class Reauthentication {
  constructor(
    private readonly tokens: AccessTokenRepository,
    private readonly attempts: ReauthenticationAttempts,
    private readonly hasher: PasswordHasher,
    private readonly secondFactor: SecondFactor,
    private readonly secrets: SecretTokens,
    private readonly clock: Clock,
  ) {}

  /**
   * Passes when the proof holds for `user`, else throws and the caller changes nothing. With a
   * password, the password (and, when `secondFactor` and the account has two-factor on, the code)
   * must be right; without one, the session must be in sudo mode. Refused while locked (429).
   */
  async confirm(user: UserWithSecrets, proof: ReauthenticationProof, options: { secondFactor: boolean }): Promise<void> {
    const needsCode = options.secondFactor && user.totp_enabled && user.totp_secret !== null;
    const password = proof.password ?? '';
    const code = proof.code?.trim() ?? '';
    if (password === '' && code === '') return this.confirmSudoMode(user, proof.session ?? null);
    if (password === '') throw Invalid.field('password', 'is required with a code', 'password_required');
    if (needsCode && code === '')
      throw Invalid.field('code', 'a code of the authenticator app or a recovery code is required', 'two_factor_code_required');

    const now = this.clock.now();
    // The attempt is counted before the check: twenty concurrent guesses cannot all be checked.
    if (!(await this.attempts.claim(user.id, toTimestamp(now), this.windowStart(now), REAUTHENTICATION_ATTEMPT_LIMIT))) {
      throw (await this.locked(user.id, now)) ?? lockedFor(REAUTHENTICATION_LOCK_MINUTES * 60);
    }
    if (!(await this.hasher.verify(password, user.password_hash))) throw new Forbidden('The password is wrong', 'wrong_password');
    // Checked only after the password, so that a wrong password uses up no code.
    if (needsCode && !(await this.secondFactor.accepts(user, code)))
      throw new Forbidden('The two-factor code is wrong or was already used', 'invalid_totp_code');
    await this.attempts.clear(user.id);
  }

  private async confirmSudoMode(user: UserWithSecrets, session: string | null): Promise<void> {
    const now = this.clock.now();
    const lock = await this.locked(user.id, now);
    if (lock) throw lock;
    const token = session ? await this.tokens.findActive(this.secrets.hash(session), toTimestamp(now)) : null;
    const auth = token?.user_id === user.id ? token.authentication : null;
    const fresh = auth !== null && now.getTime() - fromTimestamp(auth.at).getTime() <= SUDO_MODE_MINUTES * 60_000;
    // A login from before two-factor was turned on did not pass it.
    const everyFactor = auth !== null && (auth.factors === 'second_factor' || !user.totp_enabled);
    if (!fresh || !everyFactor) throw reauthenticationRequired();
  }

  private windowStart(now: Date): Timestamp {
    return toTimestamp(addSeconds(now, -REAUTHENTICATION_LOCK_MINUTES * 60));
  }

  /** The refusal of a locked account, with how long the lock still holds; null when it does not. */
  private async locked(userId: number, now: Date): Promise<RateLimited | null> {
    const since = await this.attempts.lockedSince(userId, this.windowStart(now), REAUTHENTICATION_ATTEMPT_LIMIT);
    if (since === null) return null;
    return lockedFor(Math.ceil((fromTimestamp(since).getTime() + REAUTHENTICATION_LOCK_MINUTES * 60_000 - now.getTime()) / 1000));
  }
}

function lockedFor(seconds: number): RateLimited {
  const left = Math.max(1, seconds);
  return new RateLimited(
    left,
    undefined,
    `Too many wrong passwords or codes: try again in ${Math.ceil(left / 60)} minutes`,
    'reauthentication_locked',
  );
}
