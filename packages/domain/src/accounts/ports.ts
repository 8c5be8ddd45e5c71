import { token } from '../shared/token.js';
import type { Timestamp } from '../shared/time.js';
import type { NewUser, ProfilePatch, UserRecord } from './user.js';

export interface UserRepository {
  create(user: NewUser): Promise<UserRecord>;
  findById(id: number): Promise<UserRecord | null>;
  findByIds(ids: number[]): Promise<UserRecord[]>;
  /** Finds by username, or by e-mail when the login contains an `@`; both compared case-insensitively. */
  findByLogin(login: string): Promise<UserRecord | null>;
  findByEmail(email: string): Promise<UserRecord | null>;
  /** Which of the two identifiers is already taken (case-insensitive). */
  taken(username: string, email: string): Promise<{ username: boolean; email: boolean }>;
  updateProfile(id: number, patch: ProfilePatch): Promise<void>;
  updatePasswordHash(id: number, hash: string): Promise<void>;
  setTwoFactor(id: number, secret: string | null, enabled: boolean): Promise<void>;
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

/** A live token with its owner, read together because every authenticated request needs both. */
export interface ActiveToken extends StoredToken {
  user: UserRecord;
}

export interface AccessTokenRepository {
  create(token: { user_id: number; token_hash: string; created_at: Timestamp; expires_at: Timestamp }): Promise<number>;
  /** The token with this hash and its user, if it is neither revoked nor expired at `now`. */
  findActive(tokenHash: string, now: Timestamp): Promise<ActiveToken | null>;
  /** True when this call revoked the token, false when it already was: a token is revoked once. */
  revoke(id: number, at: Timestamp): Promise<boolean>;
  revokeAllOfUser(userId: number, at: Timestamp): Promise<void>;
  touch(id: number, at: Timestamp): Promise<void>;
}
export const AccessTokenRepository = token<AccessTokenRepository>('AccessTokenRepository');

export interface PasswordResetRepository {
  create(reset: { user_id: number; token_hash: string; created_at: Timestamp; expires_at: Timestamp }): Promise<void>;
  /**
   * Marks the reset used and returns its user, atomically, if it exists, is unused and unexpired.
   * A second call with the same hash returns null: reset tokens are single-use.
   */
  consume(tokenHash: string, now: Timestamp): Promise<number | null>;
}
export const PasswordResetRepository = token<PasswordResetRepository>('PasswordResetRepository');

export interface PasswordHasher {
  hash(password: string): Promise<string>;
  verify(password: string, hash: string): Promise<boolean>;
}
export const PasswordHasher = token<PasswordHasher>('PasswordHasher');

export interface TotpVerifier {
  verify(secret: string, code: string): Promise<boolean>;
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
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
}
export const Mailer = token<Mailer>('Mailer');
