import { token } from '../shared/token.js';
import type { Timestamp } from '../shared/time.js';
import type { ActorCard } from '../shared/actor.js';
import type { TokenAuthentication } from './reauthentication.js';
import type { NewUser, ProfilePatch, RoleFlags, UserRecord, UserWithSecrets } from './user.js';

export interface UserRepository {
  /** Fails with `usernameTaken()` or `emailTaken()` (case-insensitive), also against a concurrent create. */
  create(user: NewUser): Promise<UserRecord>;
  findById(id: number): Promise<UserRecord | null>;
  /** The account with its password hash and TOTP secret, for the use cases that check them (never to return). */
  findWithSecrets(id: number): Promise<UserWithSecrets | null>;
  findByIds(ids: number[]): Promise<UserRecord[]>;
  /** Finds by username, or by e-mail when the login contains an `@`; both compared case-insensitively. */
  findByLogin(login: string): Promise<UserRecord | null>;
  /** `findByLogin` with the account's secrets, for login. */
  findByLoginWithSecrets(login: string): Promise<UserWithSecrets | null>;
  findByEmail(email: string): Promise<UserRecord | null>;
  /** Which of the two identifiers is already taken (case-insensitive). */
  taken(username: string, email: string): Promise<{ username: boolean; email: boolean }>;
  updateProfile(id: number, patch: ProfilePatch): Promise<void>;
  updatePasswordHash(id: number, hash: string): Promise<void>;
  /** Sets the e-mail address; fails with `emailTaken()` when another account uses it (case-insensitive). */
  updateEmail(id: number, email: string): Promise<void>;
  setTwoFactor(id: number, secret: string | null, enabled: boolean): Promise<void>;
  /** Stores a pending TOTP secret only if the account has none and two-factor is off; false otherwise. */
  setPendingTotpSecret(id: number, secret: string): Promise<boolean>;
  /** Turns two-factor on if it is off and the pending secret is still `secret`; false otherwise. */
  enableTotp(id: number, secret: string): Promise<boolean>;
  /** Turns two-factor off and forgets the secret; false when it was already off. */
  disableTotp(id: number): Promise<boolean>;
  /**
   * Records that the TOTP code of time step `step` was used, if no code of this step or a later one
   * was: false means the code is a replay. One conditional write, so of two concurrent logins with
   * the same code only one gets through.
   */
  advanceTotpStep(id: number, step: number): Promise<boolean>;
  /** Sets a new password hash only if the current one is still `expected`; false when it changed meanwhile. */
  replacePasswordHash(id: number, expected: string, hash: string): Promise<boolean>;
  /** Writes the privacy flags stored on the account (`is_private` is the one visibility rule's input). */
  setPrivacy(
    id: number,
    flags: Partial<Pick<UserRecord, 'is_private' | 'show_online_status' | 'read_receipts' | 'allow_messages'>>,
  ): Promise<void>;
  setAdmin(id: number, isAdmin: boolean): Promise<void>;
  touchLastActive(id: number, at: Timestamp): Promise<void>;
}
export const UserRepository = token<UserRepository>('UserRepository');

export interface StoredToken {
  id: number;
  user_id: number;
  expires_at: Timestamp;
  last_used_at: Timestamp | null;
}

/** A live token as its owner sees it in a list: never its secret. */
export interface ListedToken extends StoredToken {
  created_at: Timestamp;
}

/** A live token with its owner, read together because every authenticated request needs both. */
export interface ActiveToken extends StoredToken {
  user: UserRecord;
  /** How its login authenticated (re-authentication's sudo mode); null for tokens no login issued. */
  authentication: TokenAuthentication | null;
}

/**
 * What authenticating a request needs of a live token, and nothing more: every authenticated request
 * reads it, so it carries the account's name, roles and public card (`ActorCard`) rather than the
 * whole account.
 */
export interface TokenSession {
  id: number;
  /** When the token stops working: a cached session (SessionCache) is not served past it. */
  expires_at: Timestamp;
  last_used_at: Timestamp | null;
  user: RoleFlags & Pick<ActorCard, 'avatar' | 'militant_badge' | 'is_private'> & { username: string };
  /**
   * Whether a ban is in force for the user at the lookup's `now`, for adapters that can read it in the
   * same query (the SQL one reads moderation's bans there: admission then needs no query of its own).
   * Left undefined by adapters that cannot: admission asks the moderation context.
   */
  banned?: boolean;
  /** Likewise, whether the account is suspended (moderation's suspensions, docs/decisions/0105). */
  suspended?: boolean;
}

export interface AccessTokenRepository {
  create(token: {
    user_id: number;
    token_hash: string;
    created_at: Timestamp;
    expires_at: Timestamp;
    authentication?: TokenAuthentication | null;
  }): Promise<number>;
  /** The token with this hash and its user, if it is neither revoked nor expired at `now`. */
  findActive(tokenHash: string, now: Timestamp): Promise<ActiveToken | null>;
  /** `findActive` for authenticating a request: the same rule, the least of the account (`TokenSession`). */
  findSession(tokenHash: string, now: Timestamp): Promise<TokenSession | null>;
  /** True when this call revoked the token, false when it already was: a token is revoked once. */
  revoke(id: number, at: Timestamp): Promise<boolean>;
  revokeAllOfUser(userId: number, at: Timestamp): Promise<void>;
  /** Revokes every live token of the user but one (the session that asked); returns how many. */
  revokeOthers(userId: number, keepId: number, at: Timestamp): Promise<number>;
  touch(id: number, at: Timestamp): Promise<void>;
  /** The user's tokens neither revoked nor expired at `now`, newest first (the admin panel's tokens page). */
  listActiveOfUser(userId: number, now: Timestamp): Promise<ListedToken[]>;
}
export const AccessTokenRepository = token<AccessTokenRepository>('AccessTokenRepository');

/**
 * Secrets sent by e-mail that act once (a password reset, a deletion confirmation), stored as hashes.
 * `consume` marks the token used and returns its user, atomically, if it exists, is unused and
 * unexpired; a second call with the same hash returns null.
 */
export interface SingleUseTokenRepository {
  create(token: { user_id: number; token_hash: string; created_at: Timestamp; expires_at: Timestamp }): Promise<void>;
  consume(tokenHash: string, now: Timestamp): Promise<number | null>;
}

export interface PasswordResetRepository extends SingleUseTokenRepository {}
export const PasswordResetRepository = token<PasswordResetRepository>('PasswordResetRepository');

export interface PasswordHasher {
  hash(password: string): Promise<string>;
  verify(password: string, hash: string): Promise<boolean>;
}
export const PasswordHasher = token<PasswordHasher>('PasswordHasher');

/** RFC 6238 TOTP: SHA-1, 6 digits, 30-second steps. */
export interface TotpVerifier {
  /**
   * The time step the code belongs to when it is valid at `at` (one step of clock drift either way),
   * else null. The step is what replay protection remembers.
   */
  match(secret: string, code: string, at: Date): Promise<number | null>;
  /** A new random base32 secret. */
  newSecret(): string;
  /** The `otpauth://totp/...` URL authenticator apps read from a QR code. */
  uri(issuer: string, label: string, secret: string): string;
}
export const TotpVerifier = token<TotpVerifier>('TotpVerifier');

/** Opaque secrets (access and reset tokens) and the one-way hash they are stored under. */
export interface SecretTokens {
  generate(): string;
  hash(token: string): string;
}
export const SecretTokens = token<SecretTokens>('SecretTokens');

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  /** An HTML alternative of `text`; the message is then sent as multipart/alternative. */
  html?: string;
}

/** The transport (SMTP, or files). Use cases queue mail in the `MailOutbox`; only the delivery service calls this. */
export interface Mailer {
  send(message: MailMessage): Promise<void>;
}
export const Mailer = token<Mailer>('Mailer');
