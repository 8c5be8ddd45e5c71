import type { Actor } from '../shared/actor.js';
import type { Clock } from '../shared/clock.js';
import { Conflict, Invalid, Unauthenticated } from '../shared/errors.js';
import { addSeconds, toTimestamp, type Timestamp } from '../shared/time.js';
import type { UnitOfWork } from '../shared/unit-of-work.js';
import type {
  AccessTokenRepository,
  Mailer,
  PasswordHasher,
  PasswordResetRepository,
  SecretTokens,
  TotpVerifier,
  UserRepository,
} from './ports.js';
import { MIN_PASSWORD_LENGTH, USERNAME_PATTERN, type UserRecord } from './user.js';

export interface AuthSettings {
  tokenTtlDays: number;
  resetTtlMinutes: number;
  /** Shown in reset e-mails so the user knows which instance wrote to them. */
  instanceName: string;
}

export interface IssuedToken {
  token: string;
  expires_at: Timestamp;
  user: UserRecord;
}

export type LoginResult = { kind: 'token'; issued: IssuedToken } | { kind: 'two_factor_required' };

const INVALID_CREDENTIALS = 'Invalid username or password';
/** Only the last-used time is written on authentication, and at most this often, to keep reads cheap. */
const TOUCH_INTERVAL_MS = 60_000;

export class AuthService {
  constructor(
    private readonly users: UserRepository,
    private readonly tokens: AccessTokenRepository,
    private readonly resets: PasswordResetRepository,
    private readonly hasher: PasswordHasher,
    private readonly totp: TotpVerifier,
    private readonly secrets: SecretTokens,
    private readonly mailer: Mailer,
    private readonly clock: Clock,
    private readonly settings: AuthSettings,
    private readonly uow: UnitOfWork,
  ) {}

  async login(input: { login: string; password: string; totp?: string | null }): Promise<LoginResult> {
    const user = await this.users.findByLogin(input.login.trim());
    if (!user) {
      // Spend the same time as a real check so response time does not reveal which accounts exist.
      await this.hasher.verify(input.password, DUMMY_HASH);
      throw new Unauthenticated(INVALID_CREDENTIALS, 'invalid_credentials');
    }
    if (!(await this.hasher.verify(input.password, user.password_hash))) {
      throw new Unauthenticated(INVALID_CREDENTIALS, 'invalid_credentials');
    }
    if (user.totp_enabled && user.totp_secret) {
      const code = input.totp?.trim();
      if (!code || !(await this.totp.verify(user.totp_secret, code))) return { kind: 'two_factor_required' };
    }
    return { kind: 'token', issued: await this.issue(user) };
  }

  async register(input: { username: string; email: string; password: string; cause?: string | null }): Promise<UserRecord> {
    const username = input.username.trim();
    const email = input.email.trim().toLowerCase();
    if (!USERNAME_PATTERN.test(username)) {
      throw Invalid.field('username', '3 to 30 letters, digits, dots, dashes or underscores');
    }
    if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) throw Invalid.field('email', 'not a valid e-mail address');
    assertPasswordStrength(input.password);
    const taken = await this.users.taken(username, email);
    if (taken.username) throw new Conflict('This username is already taken', 'username_taken');
    if (taken.email) throw new Conflict('An account already uses this e-mail address', 'email_taken');
    return this.users.create({
      username,
      email,
      password_hash: await this.hasher.hash(input.password),
      cause: input.cause?.trim() || null,
      is_admin: false,
      created_at: toTimestamp(this.clock.now()),
    });
  }

  /** Resolves a bearer token to the acting user, or fails with 401 for unknown, expired or revoked tokens. */
  async authenticate(token: string): Promise<Actor> {
    const now = this.clock.now();
    const stored = await this.tokens.findActive(this.secrets.hash(token), toTimestamp(now));
    if (!stored) throw new Unauthenticated('Invalid or expired token', 'invalid_token');
    const user = stored.user;
    const lastUsed = stored.last_used_at ? Date.parse(stored.last_used_at.replace(' ', 'T') + 'Z') : 0;
    if (now.getTime() - lastUsed >= TOUCH_INTERVAL_MS) {
      await this.uow.run(async () => {
        await this.tokens.touch(stored.id, toTimestamp(now));
        await this.users.touchLastActive(user.id, toTimestamp(now));
      });
    }
    return actorOf(user);
  }

  /**
   * Returns a new token and revokes the presented one, together. A token refreshes once: of two
   * concurrent refreshes, the one that did not revoke it gets nothing.
   */
  async refresh(token: string): Promise<IssuedToken> {
    return this.uow.run(async () => {
      const stored = await this.activeToken(token);
      if (!(await this.tokens.revoke(stored.id, toTimestamp(this.clock.now())))) throw new Unauthenticated('Invalid or expired token', 'invalid_token');
      return this.issue(stored.user);
    });
  }

  async revoke(token: string): Promise<void> {
    const stored = await this.activeToken(token);
    await this.tokens.revoke(stored.id, toTimestamp(this.clock.now()));
  }

  /** Always completes the same way, whether or not the address belongs to an account. */
  async forgotPassword(email: string): Promise<void> {
    const user = await this.users.findByEmail(email.trim().toLowerCase());
    if (!user) return;
    const token = this.secrets.generate();
    const now = this.clock.now();
    await this.resets.create({
      user_id: user.id,
      token_hash: this.secrets.hash(token),
      created_at: toTimestamp(now),
      expires_at: toTimestamp(addSeconds(now, this.settings.resetTtlMinutes * 60)),
    });
    await this.mailer.send({
      to: user.email,
      subject: `${this.settings.instanceName}: password reset`,
      text: [
        `Hello ${user.username},`,
        '',
        'Someone asked to reset the password of your account. If it was you, use this code:',
        '',
        token,
        '',
        `It works once, within ${this.settings.resetTtlMinutes} minutes. If it was not you, ignore this message.`,
      ].join('\n'),
    });
  }

  /**
   * Uses the reset token, sets the password and ends every session, all or nothing: a failure leaves
   * the token usable and the old password in place.
   */
  async resetPassword(input: { token: string; password: string }): Promise<void> {
    assertPasswordStrength(input.password);
    // Hashed before the unit of work: bcrypt takes tens of milliseconds, no transaction should wait on it.
    const hash = await this.hasher.hash(input.password);
    const now = toTimestamp(this.clock.now());
    await this.uow.run(async () => {
      const userId = await this.resets.consume(this.secrets.hash(input.token.trim()), now);
      if (userId === null) throw Invalid.field('token', 'unknown, expired or already used', 'invalid_reset_token');
      await this.users.updatePasswordHash(userId, hash);
      // A reset means the old password may be known to someone else: end every session.
      await this.tokens.revokeAllOfUser(userId, now);
    });
  }

  private async activeToken(token: string) {
    const stored = await this.tokens.findActive(this.secrets.hash(token), toTimestamp(this.clock.now()));
    if (!stored) throw new Unauthenticated('Invalid or expired token', 'invalid_token');
    return stored;
  }

  private async issue(user: UserRecord): Promise<IssuedToken> {
    const token = this.secrets.generate();
    const now = this.clock.now();
    const expires_at = toTimestamp(addSeconds(now, this.settings.tokenTtlDays * 86_400));
    await this.tokens.create({
      user_id: user.id,
      token_hash: this.secrets.hash(token),
      created_at: toTimestamp(now),
      expires_at,
    });
    return { token, expires_at, user };
  }
}

export function assertPasswordStrength(password: string): void {
  if (password.length < MIN_PASSWORD_LENGTH) {
    throw Invalid.field('password', `must be at least ${MIN_PASSWORD_LENGTH} characters`, 'password_too_short');
  }
  if (password.length > 200) throw Invalid.field('password', 'must be at most 200 characters');
}

export function actorOf(user: UserRecord): Actor {
  return {
    userId: user.id,
    username: user.username,
    isAdmin: user.is_admin,
    isModerator: user.is_moderator,
    isTechnician: user.is_technician,
  };
}

/** A valid bcrypt hash of a random string, verified against when the account does not exist. */
const DUMMY_HASH = '$2y$10$bcb0bH4P10BGl.pY7Kizd.cRm/cd9TITDmdCaIQq3JtcWjVaUaQeu';
