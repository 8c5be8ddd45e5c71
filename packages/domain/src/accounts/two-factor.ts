import type { Actor } from '../shared/actor.js';
import type { Clock } from '../shared/clock.js';
import { Conflict, Invalid, NotFound } from '../shared/errors.js';
import { toTimestamp, type Timestamp } from '../shared/time.js';
import { token } from '../shared/token.js';
import type { UnitOfWork } from '../shared/unit-of-work.js';
import type { MailDeliveryService } from './mail-outbox.js';
import { twoFactorDisabledMail } from './mail-templates.js';
import type { SecretTokens, TotpVerifier, UserRepository } from './ports.js';
import type { Reauthentication, ReauthenticationProof } from './reauthentication.js';
import type { UserWithSecrets } from './user.js';

/** Single-use codes that replace a TOTP code when the authenticator is lost; stored as hashes only. */
export interface RecoveryCodeRepository {
  /** Replaces every code of the account with these hashes (a new set on each enabling). */
  replace(userId: number, hashes: string[], at: Timestamp): Promise<void>;
  /** Marks the account's unused code with this hash used; false when there is none. One conditional write. */
  consume(userId: number, hash: string, at: Timestamp): Promise<boolean>;
  countUnused(userId: number): Promise<number>;
  deleteAll(userId: number): Promise<void>;
}
export const RecoveryCodeRepository = token<RecoveryCodeRepository>('RecoveryCodeRepository');

export const RECOVERY_CODE_COUNT = 10;
/** 32 symbols without the look-alikes 0/o and 1/l/i. */
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

/**
 * A recovery code `xxxxx-xxxxx` (50 random bits) made from a random token: each base64url character
 * is uniform over 64 symbols, so its index modulo 32 is uniform over the alphabet.
 */
export function recoveryCodeFrom(randomToken: string): string {
  const base64url = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
  const chars = [...randomToken].filter((c) => base64url.includes(c)).slice(0, 10);
  if (chars.length < 10) throw new Error('the random token is too short for a recovery code');
  const code = chars.map((c) => RECOVERY_ALPHABET[base64url.indexOf(c) % 32] ?? '2').join('');
  return `${code.slice(0, 5)}-${code.slice(5)}`;
}

/** What users type: any case, with or without the dash and spaces. Null when it cannot be a recovery code. */
export function normalizeRecoveryCode(input: string): string | null {
  const compact = input.toLowerCase().replace(/[\s-]/g, '');
  if (compact.length !== 10 || [...compact].some((c) => !RECOVERY_ALPHABET.includes(c))) return null;
  return `${compact.slice(0, 5)}-${compact.slice(5)}`;
}

/**
 * The second factor at login: a TOTP code not used before (RFC 6238, one step of drift either way),
 * or an unused recovery code, once.
 */
export class SecondFactor {
  constructor(
    private readonly users: UserRepository,
    private readonly recovery: RecoveryCodeRepository,
    private readonly totp: TotpVerifier,
    private readonly secrets: SecretTokens,
    private readonly clock: Clock,
  ) {}

  async accepts(user: UserWithSecrets, input: string): Promise<boolean> {
    if (!user.totp_secret) return false;
    const code = input.replace(/\s/g, '');
    const now = this.clock.now();
    if (/^\d{6}$/.test(code)) {
      const step = await this.totp.match(user.totp_secret, code, now);
      // The step is recorded by a conditional write: the same code (or an older one) is a replay.
      return step !== null && (await this.users.advanceTotpStep(user.id, step));
    }
    const recovery = normalizeRecoveryCode(code);
    return recovery !== null && (await this.recovery.consume(user.id, this.secrets.hash(recovery), toTimestamp(now)));
  }
}

export interface TwoFactorStatus {
  enabled: boolean;
  /** While not enabled: the pending secret and its otpauth URL, stable until enabling. */
  secret: string | null;
  otpauth_url: string | null;
  recovery_codes_remaining: number;
}

/** two_factor.php: set-up secret, enabling with a first code, new recovery codes, disabling. */
export class TwoFactorService {
  constructor(
    private readonly users: UserRepository,
    private readonly recovery: RecoveryCodeRepository,
    private readonly totp: TotpVerifier,
    private readonly secrets: SecretTokens,
    private readonly mail: MailDeliveryService,
    private readonly clock: Clock,
    private readonly uow: UnitOfWork,
    private readonly settings: { issuer: string },
    private readonly reauthentication: Reauthentication,
  ) {}

  async status(actor: Actor): Promise<TwoFactorStatus> {
    let user = await this.account(actor);
    if (user.totp_enabled) {
      return { enabled: true, secret: null, otpauth_url: null, recovery_codes_remaining: await this.recovery.countUnused(user.id) };
    }
    if (!user.totp_secret) {
      // Of two first reads at once, one secret wins and both answer it.
      await this.users.setPendingTotpSecret(user.id, this.totp.newSecret());
      user = await this.account(actor);
    }
    const secret = user.totp_secret!;
    return { enabled: false, secret, otpauth_url: this.totp.uri(this.settings.issuer, user.username, secret), recovery_codes_remaining: 0 };
  }

  /** Checks the first code against the pending secret; returns the recovery codes, shown this once. */
  async enable(actor: Actor, code: string): Promise<{ recovery_codes: string[] }> {
    const user = await this.account(actor);
    if (user.totp_enabled) throw new Conflict('Two-factor authentication is already on', 'two_factor_already_enabled');
    if (!user.totp_secret) throw Invalid.field('code', 'read the set-up secret first (GET two_factor.php)', 'no_pending_secret');
    const digits = code.replace(/\s/g, '');
    const step = /^\d{6}$/.test(digits) ? await this.totp.match(user.totp_secret, digits, this.clock.now()) : null;
    if (step === null) throw Invalid.field('code', 'wrong or expired code', 'invalid_totp_code');
    const codes = this.newRecoveryCodes();
    const now = toTimestamp(this.clock.now());
    await this.uow.run(async () => {
      // Conditional on the secret the code was checked against: of concurrent enablings one wins.
      if (!(await this.users.enableTotp(user.id, user.totp_secret!))) {
        throw new Conflict('Two-factor authentication is already on', 'two_factor_already_enabled');
      }
      // The enabling code is used up: it cannot log in a second time.
      await this.users.advanceTotpStep(user.id, step);
      await this.recovery.replace(
        user.id,
        codes.map((c) => this.secrets.hash(c)),
        now,
      );
    });
    return { recovery_codes: codes };
  }

  /**
   * A new set of recovery codes replacing every previous one, shown this once. Needs the password or
   * sudo mode (docs/decisions/0112): whoever holds them can turn two-factor off.
   */
  async regenerateRecoveryCodes(actor: Actor, proof: ReauthenticationProof): Promise<{ recovery_codes: string[] }> {
    const user = await this.account(actor);
    if (!user.totp_enabled)
      throw new Conflict('Two-factor authentication is off: there are no recovery codes to renew', 'two_factor_not_enabled');
    await this.reauthentication.confirm(user, proof, { secondFactor: false });
    const codes = this.newRecoveryCodes();
    const now = toTimestamp(this.clock.now());
    await this.uow.run(() =>
      this.recovery.replace(
        user.id,
        codes.map((c) => this.secrets.hash(c)),
        now,
      ),
    );
    return { recovery_codes: codes };
  }

  /**
   * Turns two-factor off and tells the owner by e-mail; `false` when it already was off (nothing
   * mailed, nothing asked). Needs the password and a code, or sudo mode (docs/decisions/0112).
   */
  async disable(actor: Actor, proof: ReauthenticationProof): Promise<{ disabled: boolean }> {
    const user = await this.account(actor);
    if (!user.totp_enabled) return { disabled: false };
    await this.reauthentication.confirm(user, proof, { secondFactor: true });
    const now = this.clock.now();
    const mailId = await this.uow.run(async () => {
      if (!(await this.users.disableTotp(user.id))) return null;
      await this.recovery.deleteAll(user.id);
      return this.mail.queue(user.id, twoFactorDisabledMail(user, toTimestamp(now), this.settings.issuer));
    });
    if (mailId === null) return { disabled: false };
    this.mail.sendSoon([mailId]);
    return { disabled: true };
  }

  private newRecoveryCodes(): string[] {
    return Array.from({ length: RECOVERY_CODE_COUNT }, () => recoveryCodeFrom(this.secrets.generate()));
  }

  /** With its secrets: the set-up secret is what status shows while two-factor is off. */
  private async account(actor: Actor): Promise<UserWithSecrets> {
    const user = await this.users.findWithSecrets(actor.userId);
    if (!user) throw new NotFound('User not found', 'user_not_found');
    return user;
  }
}
