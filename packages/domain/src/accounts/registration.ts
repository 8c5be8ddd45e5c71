import type { Clock } from '../shared/clock.js';
import { type ErrorCodeOf, Forbidden, Invalid, Unauthenticated } from '../shared/errors.js';
import { addSeconds, toTimestamp, type Timestamp } from '../shared/time.js';
import type { UnitOfWork } from '../shared/unit-of-work.js';
import type { AuthService } from './auth-service.js';
import type { MailDeliveryService } from './mail-outbox.js';
import { emailConfirmationMail } from './mail-templates.js';
import type { SecretTokens, UserRepository } from './ports.js';
import type { AccountHoldRepository, EmailConfirmationRepository, Invitation, InvitationRepository } from './registration-ports.js';
import type { UserRecord } from './user.js';

/** API_REGISTRATION (docs/decisions/0104). */
export const REGISTRATION_MODES = ['open', 'approval', 'invite', 'closed'] as const;
export type RegistrationMode = (typeof REGISTRATION_MODES)[number];

export interface RegistrationPolicy {
  mode: RegistrationMode;
  /** API_REGISTRATION_EMAIL_CONFIRM: a new account signs in once it followed the link mailed to it. */
  emailConfirm: boolean;
}

/** How long the e-mailed confirmation link works; `resend_confirmation` mails a new one. */
export const EMAIL_CONFIRMATION_TTL_HOURS = 24;
/** `resend_confirmation` mails an account at most this often, whoever asks: it cannot flood an inbox. */
export const CONFIRMATION_RESEND_INTERVAL_SECONDS = 300;

/** What a new account waits for before it may sign in, as register answers it. */
export type Awaiting = 'email_confirmation' | 'approval';

/** Login's question to registration: may this account sign in yet? (AuthService.login asks it after the password.) */
export interface LoginAdmission {
  /** Throws `Unauthenticated` with `email_unconfirmed` or `approval_pending` while the account waits. */
  assertMayLogIn(userId: number): Promise<void>;
}

/**
 * The holds of new accounts, as login reads them. The approval hold is kept whatever the mode becomes
 * (an administrator decides it); the e-mail hold only counts while confirmation is required, so an
 * operator who turns confirmation off (a broken SMTP server) lets those accounts in.
 */
export class AccountAdmission implements LoginAdmission {
  constructor(
    private readonly holds: AccountHoldRepository,
    private readonly policy: RegistrationPolicy,
  ) {}

  async assertMayLogIn(userId: number): Promise<void> {
    const hold = await this.holds.find(userId);
    if (!hold) return;
    // The e-mail first: the applicant can do something about it.
    if (hold.awaiting_email && this.policy.emailConfirm) {
      throw new Unauthenticated('Confirm your e-mail address first: open the link we sent you (or ask for a new one)', 'email_unconfirmed');
    }
    if (hold.awaiting_approval) {
      throw new Unauthenticated(
        'Your registration is waiting for an administrator’s approval; you will receive an e-mail once it is decided',
        'approval_pending',
      );
    }
  }
}

export interface RegistrationSettings {
  policy: RegistrationPolicy;
  instanceName: string;
  /** The confirmation link's URL for a secret (auth.php?action=confirm_email&token=…). */
  confirmUrl: (secret: string) => string;
}

export interface Registration {
  user: UserRecord;
  awaiting: Awaiting[];
}

/** Characters of a new invitation code (96 random bits in base64url): short enough to type. */
export const INVITATION_CODE_LENGTH = 16;

/**
 * auth.php's register under the operator's rules (API_REGISTRATION, API_REGISTRATION_EMAIL_CONFIRM),
 * the e-mail confirmation link and its resending. The account's rules themselves (name, address,
 * password) are AuthService's.
 */
export class RegistrationService {
  constructor(
    private readonly auth: AuthService,
    private readonly users: UserRepository,
    private readonly holds: AccountHoldRepository,
    private readonly invitations: InvitationRepository,
    private readonly confirmations: EmailConfirmationRepository,
    private readonly secrets: SecretTokens,
    private readonly mail: MailDeliveryService,
    private readonly clock: Clock,
    private readonly uow: UnitOfWork,
    private readonly settings: RegistrationSettings,
  ) {}

  get policy(): RegistrationPolicy {
    return this.settings.policy;
  }

  /**
   * Refusals have codes of their own, answered 200 by auth.php like the account's rules
   * (docs/decisions/0010): `registration_closed`, `invite_required`, `invalid_invite_code`,
   * `invite_expired`, `invite_used_up`.
   */
  async register(input: {
    username: string;
    email: string;
    password: string;
    cause?: string | null;
    invite_code?: string | null;
  }): Promise<Registration> {
    const { mode, emailConfirm } = this.settings.policy;
    if (mode === 'closed') throw new Forbidden('Registration is closed on this server', 'registration_closed');
    let codeHash: string | null = null;
    if (mode === 'invite') {
      const code = input.invite_code?.trim();
      if (!code) throw inviteRefusal('An invitation code is required to register on this server', 'invite_required');
      codeHash = this.secrets.hash(code);
      // Refused before the password is hashed; the use itself is counted in the unit below.
      await this.assertUsable(codeHash);
    }
    const candidate = await this.auth.prepareRegistration(input);
    const awaiting: Awaiting[] = [
      ...(emailConfirm ? (['email_confirmation'] as const) : []),
      ...(mode === 'approval' ? (['approval'] as const) : []),
    ];
    const secret = emailConfirm ? this.secrets.generate() : null;
    const { user, mailId } = await this.uow.run(async () => {
      const now = toTimestamp(this.clock.now());
      // The code's use and the account commit together: an account refused (a name taken meanwhile) spends no use.
      if (codeHash !== null && !(await this.invitations.use(codeHash, now))) await this.assertUsable(codeHash, true);
      const user = await this.users.create(candidate);
      if (awaiting.length > 0) {
        await this.holds.create({
          user_id: user.id,
          awaiting_approval: mode === 'approval',
          awaiting_email: emailConfirm,
          created_at: now,
        });
      }
      const mailId = secret ? await this.queueConfirmation(user, secret) : null;
      return { user, mailId };
    });
    if (mailId !== null) this.mail.sendSoon([mailId]);
    return { user, awaiting };
  }

  /** The e-mailed link: confirms the address once. */
  async confirmEmail(secret: string): Promise<{ user_id: number; awaiting_approval: boolean }> {
    return this.uow.run(async () => {
      const userId = await this.confirmations.consume(this.secrets.hash(secret.trim()), toTimestamp(this.clock.now()));
      if (userId === null) throw Invalid.field('token', 'unknown, expired or already used', 'invalid_confirmation_token');
      await this.holds.clearEmail(userId);
      const hold = await this.holds.find(userId);
      return { user_id: userId, awaiting_approval: hold?.awaiting_approval ?? false };
    });
  }

  /**
   * Mails a new link to an account still waiting for its confirmation. Completes the same way
   * whatever the address: the caller's answer tells nothing about which accounts exist.
   */
  async resendConfirmation(email: string): Promise<void> {
    if (!this.settings.policy.emailConfirm) return;
    const user = await this.users.findByEmail(email.trim().toLowerCase());
    if (!user || user.deleted_at !== null) return;
    const hold = await this.holds.find(user.id);
    if (!hold?.awaiting_email) return;
    const last = await this.confirmations.lastSentAt(user.id);
    const now = this.clock.now();
    if (last !== null && last > toTimestamp(addSeconds(now, -CONFIRMATION_RESEND_INTERVAL_SECONDS))) return;
    const secret = this.secrets.generate();
    const mailId = await this.uow.run(() => this.queueConfirmation(user, secret));
    this.mail.sendSoon([mailId]);
  }

  private async queueConfirmation(user: UserRecord, secret: string): Promise<number> {
    const now = this.clock.now();
    await this.confirmations.create({
      user_id: user.id,
      token_hash: this.secrets.hash(secret),
      created_at: toTimestamp(now),
      expires_at: toTimestamp(addSeconds(now, EMAIL_CONFIRMATION_TTL_HOURS * 3600)),
    });
    return this.mail.queue(
      user.id,
      emailConfirmationMail(user, this.settings.confirmUrl(secret), EMAIL_CONFIRMATION_TTL_HOURS, this.settings.instanceName),
    );
  }

  /** Throws the refusal that says why the code cannot be used; returns when it can (or `always`: throws anyway). */
  private async assertUsable(codeHash: string, always = false): Promise<void> {
    const invitation = await this.invitations.findByHash(codeHash);
    const problem = invitationProblem(invitation, toTimestamp(this.clock.now()));
    if (problem) throw problem;
    // Counted by a concurrent registration between the check and the write.
    if (always) throw inviteRefusal('This invitation has been used up', 'invite_used_up');
  }
}

function invitationProblem(invitation: Invitation | null, now: Timestamp): Invalid | null {
  if (!invitation || invitation.revoked_at !== null) return inviteRefusal('This invitation code is not valid', 'invalid_invite_code');
  if (invitation.expires_at !== null && invitation.expires_at <= now) return inviteRefusal('This invitation has expired', 'invite_expired');
  if (invitation.uses >= invitation.max_uses) return inviteRefusal('This invitation has been used up', 'invite_used_up');
  return null;
}

/** A refusal of the code, worded for the person registering (the app shows `message`). */
function inviteRefusal(message: string, code: ErrorCodeOf<'invalid'>): Invalid {
  return new Invalid(message, code, [{ field: 'invite_code', problem: message.toLowerCase() }]);
}
