import type { ListPage, PageRequest } from '../shared/pagination.js';
import type { Timestamp } from '../shared/time.js';
import { token } from '../shared/token.js';
import type { SingleUseTokenRepository } from './ports.js';

/**
 * What a new account still waits for before it may sign in (docs/decisions/0104): an administrator's
 * approval, a confirmed e-mail address, or both. Accounts with no hold (every account registered in
 * `open` mode without confirmation, and all those of before) sign in as always.
 */
export interface AccountHold {
  user_id: number;
  awaiting_approval: boolean;
  awaiting_email: boolean;
  created_at: Timestamp;
}

/** A registration waiting for approval, as the admin panel lists it. */
export interface PendingRegistration {
  user_id: number;
  username: string;
  email: string;
  cause: string | null;
  /** False while the applicant has not confirmed the address yet (with API_REGISTRATION_EMAIL_CONFIRM). */
  email_confirmed: boolean;
  created_at: Timestamp;
}

export interface AccountHoldRepository {
  create(hold: AccountHold): Promise<void>;
  find(userId: number): Promise<AccountHold | null>;
  /**
   * Ends the wait for approval if it is still on: one conditional write, so of two administrators
   * deciding at once only one gets true. The hold goes away once nothing is awaited any more.
   */
  clearApproval(userId: number): Promise<boolean>;
  /** The same for the e-mail confirmation. */
  clearEmail(userId: number): Promise<boolean>;
  /** Live accounts awaiting approval, oldest first. */
  awaitingApproval(page: PageRequest): Promise<ListPage<PendingRegistration>>;
}
export const AccountHoldRepository = token<AccountHoldRepository>('AccountHoldRepository');

/** An invitation code as administrators see it: never the code itself, only its first characters. */
export interface Invitation {
  id: number;
  code_hint: string;
  max_uses: number;
  uses: number;
  /** Null: never expires. */
  expires_at: Timestamp | null;
  revoked_at: Timestamp | null;
  created_by: number;
  created_at: Timestamp;
}

export interface InvitationRepository {
  create(invitation: {
    code_hash: string;
    code_hint: string;
    max_uses: number;
    expires_at: Timestamp | null;
    created_by: number;
    created_at: Timestamp;
  }): Promise<Invitation>;
  /**
   * Counts one use of the code if it is neither revoked nor expired at `now` and has uses left: one
   * conditional write (`uses < max_uses and (expires_at is null or expires_at > now)`), so a code of
   * one use admits one registration however many race for it. False when it did not count.
   */
  use(codeHash: string, now: Timestamp): Promise<boolean>;
  findByHash(codeHash: string): Promise<Invitation | null>;
  /** Newest first. */
  list(page: PageRequest): Promise<ListPage<Invitation>>;
  /** True when this call revoked it; false when it was unknown or already revoked. */
  revoke(id: number, at: Timestamp): Promise<boolean>;
}
export const InvitationRepository = token<InvitationRepository>('InvitationRepository');

/** Single-use links confirming a new account's e-mail address (docs/decisions/0090's token store). */
export interface EmailConfirmationRepository extends SingleUseTokenRepository {
  /** When the account's newest link was made, used or not; null when it has none. */
  lastSentAt(userId: number): Promise<Timestamp | null>;
}
export const EmailConfirmationRepository = token<EmailConfirmationRepository>('EmailConfirmationRepository');
