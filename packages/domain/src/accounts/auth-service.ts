import type { Actor, ActorCard, Session } from '../shared/actor.js';
import type { Clock } from '../shared/clock.js';
import { Invalid, Unauthenticated } from '../shared/errors.js';
import { addSeconds, toTimestamp, type Timestamp } from '../shared/time.js';
import type { UnitOfWork } from '../shared/unit-of-work.js';
import type { MailDeliveryService } from './mail-outbox.js';
import { passwordResetMail } from './mail-templates.js';
import type { AccessTokenRepository, PasswordHasher, PasswordResetRepository, SecretTokens, UserRepository } from './ports.js';
import type { TokenAuthentication } from './reauthentication.js';
import type { LoginAdmission } from './registration.js';
import type { SessionCache } from './session-cache.js';
import type { SecondFactor } from './two-factor.js';
import {
  EMAIL_PATTERN,
  emailTaken,
  MIN_PASSWORD_LENGTH,
  rolesOf,
  USERNAME_PATTERN,
  usernameTaken,
  type NewUser,
  type RoleFlags,
  type UserRecord,
  withoutSecrets,
} from './user.js';

export interface AuthSettings {
  tokenTtlDays: number;
  resetTtlMinutes: number;
  /** Shown in reset e-mails so the user knows which instance wrote to them. */
  instanceName: string;
  /** MEDIA_TECHNICIAN_USER_IDS: accounts that are technicians whatever their flags (see `rolesOf`). */
  technicianUserIds?: readonly number[];
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
    private readonly secondFactor: SecondFactor,
    private readonly secrets: SecretTokens,
    private readonly mail: MailDeliveryService,
    private readonly clock: Clock,
    private readonly settings: AuthSettings,
    private readonly uow: UnitOfWork,
    /** Registration's holds (approval, e-mail confirmation: docs/decisions/0104); none lets every account in. */
    private readonly admission: LoginAdmission | null = null,
    /** The sessions this process authenticated (docs/decisions/0150); none reads every token from the repository. */
    private readonly sessions: SessionCache | null = null,
  ) {}

  async login(input: { login: string; password: string; totp?: string | null }): Promise<LoginResult> {
    const user = await this.users.findByLoginWithSecrets(input.login.trim());
    if (!user) {
      // Spend the same time as a real check so response time does not reveal which accounts exist.
      await this.hasher.verify(input.password, DUMMY_HASH);
      throw new Unauthenticated(INVALID_CREDENTIALS, 'invalid_credentials');
    }
    if (!(await this.hasher.verify(input.password, user.password_hash))) {
      throw new Unauthenticated(INVALID_CREDENTIALS, 'invalid_credentials');
    }
    // Only after the password: whether an account waits tells nothing to someone who does not own it.
    await this.admission?.assertMayLogIn(user.id);
    const secondFactor = user.totp_enabled && user.totp_secret !== null;
    if (secondFactor) {
      // A TOTP code not used before, or an unused recovery code (each works once).
      const code = input.totp?.trim();
      if (!code || !(await this.secondFactor.accepts(user, code))) return { kind: 'two_factor_required' };
    }
    // Recorded on the token: re-authentication's sudo mode reads how and when this login proved itself.
    const authentication: TokenAuthentication = { at: toTimestamp(this.clock.now()), factors: secondFactor ? 'second_factor' : 'password' };
    return { kind: 'token', issued: await this.issue(withoutSecrets(user), authentication) };
  }

  async register(input: { username: string; email: string; password: string; cause?: string | null }): Promise<UserRecord> {
    return this.users.create(await this.prepareRegistration(input));
  }

  /**
   * The account a registration would create, its rules checked and its password hashed (outside any
   * unit of work: bcrypt is slow), for `register` and for RegistrationService's modes.
   */
  async prepareRegistration(input: { username: string; email: string; password: string; cause?: string | null }): Promise<NewUser> {
    const username = input.username.trim();
    const email = input.email.trim().toLowerCase();
    // Each refusal has a code of its own: auth.php answers them with a 200 the client can show (docs/decisions/0010).
    if (!USERNAME_PATTERN.test(username)) {
      throw Invalid.field('username', '3 to 30 letters, digits, dots, dashes or underscores', 'invalid_username');
    }
    if (!EMAIL_PATTERN.test(email)) throw Invalid.field('email', 'not a valid e-mail address', 'invalid_email');
    // Deleted accounts become `deleted_<id>` with a `.invalid` address (docs/decisions/0090): both are reserved.
    if (/^deleted_/i.test(username)) throw Invalid.field('username', 'names starting with deleted_ are reserved', 'invalid_username');
    if (/\.invalid$/i.test(email)) throw Invalid.field('email', 'not a valid e-mail address', 'invalid_email');
    assertPasswordStrength(input.password);
    const taken = await this.users.taken(username, email);
    if (taken.username) throw usernameTaken();
    if (taken.email) throw emailTaken();
    // A concurrent registration of the same name or address can still win the insert: the
    // repository then refuses with the same errors.
    return {
      username,
      email,
      password_hash: await this.hasher.hash(input.password),
      cause: input.cause?.trim() || null,
      is_admin: false,
      created_at: toTimestamp(this.clock.now()),
    };
  }

  /** Resolves a bearer token to the acting user, or fails with 401 for unknown, expired or revoked tokens. */
  async authenticate(token: string): Promise<Actor> {
    return (await this.session(token)).actor;
  }

  /** `authenticate`, with what the token lookup knows of a ban in force (see `Session`). */
  async session(token: string): Promise<Session> {
    const now = this.clock.now();
    const hash = this.secrets.hash(token);
    const load = () => this.tokens.findSession(hash, toTimestamp(now));
    const stored = this.sessions ? await this.sessions.lookup(hash, now, load) : await load();
    if (!stored) throw new Unauthenticated('Invalid or expired token', 'invalid_token');
    const user = stored.user;
    // Read from the cache now, not from `stored`: a request served meanwhile may have recorded a use.
    const lastUsedAt = this.sessions?.lastUsedAt(hash) ?? stored.last_used_at;
    const lastUsed = lastUsedAt ? Date.parse(lastUsedAt.replace(' ', 'T') + 'Z') : 0;
    if (now.getTime() - lastUsed >= TOUCH_INTERVAL_MS) {
      const at = toTimestamp(now);
      // Marked first, so that the requests this process serves meanwhile with the same token do not
      // write the same two rows again. And only bookkeeping: a use that cannot be recorded must not
      // fail the request it belongs to. On a Galera cluster the user's row is written by every post
      // from both nodes, and during a view change a touch could lose all its conflict retries (the
      // cluster test saw a 500): the mark is taken back, and the next request records the use.
      this.sessions?.touched(hash, at);
      try {
        await this.uow.run(async () => {
          await this.tokens.touch(stored.id, at);
          await this.users.touchLastActive(user.id, at);
        });
      } catch {
        this.sessions?.touched(hash, stored.last_used_at);
      }
    }
    const card: ActorCard = {
      avatar: user.avatar,
      militant_badge: user.militant_badge,
      is_private: user.is_private,
      is_admin: user.is_admin,
      is_moderator: user.is_moderator,
      is_technician: user.is_technician,
    };
    return { actor: { ...actorOf(user, this.settings.technicianUserIds), card }, banned: stored.banned, suspended: stored.suspended };
  }

  /**
   * Returns a new token and revokes the presented one, together. A token refreshes once: of two
   * concurrent refreshes, the one that did not revoke it gets nothing.
   */
  async refresh(token: string): Promise<IssuedToken> {
    return this.uow.run(async () => {
      const stored = await this.activeToken(token);
      if (!(await this.tokens.revoke(stored.id, toTimestamp(this.clock.now()))))
        throw new Unauthenticated('Invalid or expired token', 'invalid_token');
      // The original login's authentication carries over: a refresh never extends sudo mode.
      return this.issue(stored.user, stored.authentication);
    });
  }

  /** Of two concurrent revokes of one token, the second is refused as it would be after the first. */
  async revoke(token: string): Promise<void> {
    const stored = await this.activeToken(token);
    if (!(await this.tokens.revoke(stored.id, toTimestamp(this.clock.now()))))
      throw new Unauthenticated('Invalid or expired token', 'invalid_token');
  }

  /**
   * Always completes the same way, whether or not the address belongs to an account. The reset and
   * its mail are stored together; the mail leaves now if the SMTP server answers, later otherwise.
   */
  async forgotPassword(email: string): Promise<void> {
    const user = await this.users.findByEmail(email.trim().toLowerCase());
    if (!user || user.deleted_at !== null) return;
    const token = this.secrets.generate();
    const now = this.clock.now();
    const mailId = await this.uow.run(async () => {
      await this.resets.create({
        user_id: user.id,
        token_hash: this.secrets.hash(token),
        created_at: toTimestamp(now),
        expires_at: toTimestamp(addSeconds(now, this.settings.resetTtlMinutes * 60)),
      });
      return this.mail.queue(user.id, passwordResetMail(user, token, this.settings.resetTtlMinutes, this.settings.instanceName));
    });
    this.mail.sendSoon([mailId]);
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

  /**
   * A new access token for the user, with the configured lifetime (login, refresh, the admin panel's
   * tokens page); `authentication` is how its login proved itself, none for a token no login issued.
   */
  async issue(user: UserRecord, authentication: TokenAuthentication | null = null): Promise<IssuedToken> {
    const token = this.secrets.generate();
    const now = this.clock.now();
    const expires_at = toTimestamp(addSeconds(now, this.settings.tokenTtlDays * 86_400));
    await this.tokens.create({
      user_id: user.id,
      token_hash: this.secrets.hash(token),
      created_at: toTimestamp(now),
      expires_at,
      authentication,
    });
    return { token, expires_at, user };
  }
}

export function assertPasswordStrength(password: string): void {
  if (password.length < MIN_PASSWORD_LENGTH) {
    throw Invalid.field('password', `must be at least ${MIN_PASSWORD_LENGTH} characters`, 'password_too_short');
  }
  if (password.length > 200) throw Invalid.field('password', 'must be at most 200 characters', 'password_too_long');
}

/** The acting user, with the roles `rolesOf` grants (an admin acts as a moderator and a technician too). */
export function actorOf(user: RoleFlags & { username: string }, technicianUserIds: readonly number[] = []): Actor {
  const roles = rolesOf(user, technicianUserIds);
  return {
    userId: user.id,
    username: user.username,
    isAdmin: roles.admin,
    isModerator: roles.moderator,
    isTechnician: roles.technician,
  };
}

/** A valid bcrypt hash of a random string, verified against when the account does not exist. */
const DUMMY_HASH = '$2y$10$bcb0bH4P10BGl.pY7Kizd.cRm/cd9TITDmdCaIQq3JtcWjVaUaQeu';
