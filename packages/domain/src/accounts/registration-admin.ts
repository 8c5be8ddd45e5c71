import type { Actor } from '../shared/actor.js';
import type { Clock } from '../shared/clock.js';
import { Conflict, Forbidden, Invalid, NotFound } from '../shared/errors.js';
import type { ListPage, PageRequest } from '../shared/pagination.js';
import { addSeconds, toTimestamp, type Timestamp } from '../shared/time.js';
import type { UnitOfWork } from '../shared/unit-of-work.js';
import type { AccountEraser } from './account-deletion.js';
import type { MailDeliveryService } from './mail-outbox.js';
import { registrationApprovedMail, registrationRejectedMail } from './mail-templates.js';
import type { SecretTokens, UserRepository } from './ports.js';
import type { AccountHoldRepository, Invitation, InvitationRepository, PendingRegistration } from './registration-ports.js';
import { INVITATION_CODE_LENGTH } from './registration.js';

/** The registration decisions written to the moderators' action log. */
export type RegistrationActionType = 'approve_signup' | 'reject_signup' | 'create_invite' | 'revoke_invite';

/**
 * Where decisions are recorded: the moderators' action log (moderators.php?type=actions), inside the
 * decision's unit of work. An invitation concerns no account: its line names the administrator as target.
 */
export interface RegistrationDecisionLog {
  record(entry: {
    moderator_id: number;
    action_type: RegistrationActionType;
    target_user_id: number;
    reason: string;
    created_at: Timestamp;
  }): Promise<void>;
}

export const MAX_INVITATION_USES = 10_000;
export const MAX_INVITATION_DAYS = 3650;

/**
 * The admin panel's registrations (docs/decisions/0104): moderators and administrators decide pending
 * registrations (a moderation decision, like a report's); administrators alone create and revoke
 * invitations (who may join without review is the operator's choice).
 */
export class RegistrationAdminService {
  constructor(
    private readonly users: UserRepository,
    private readonly holds: AccountHoldRepository,
    private readonly invitations: InvitationRepository,
    private readonly eraser: AccountEraser,
    private readonly secrets: SecretTokens,
    private readonly mail: MailDeliveryService,
    private readonly clock: Clock,
    private readonly uow: UnitOfWork,
    private readonly log: RegistrationDecisionLog,
    private readonly settings: { instanceName: string },
  ) {}

  async pending(actor: Actor, page: PageRequest): Promise<ListPage<PendingRegistration>> {
    assertModerator(actor);
    return this.holds.awaitingApproval(page);
  }

  /** Lets the account sign in and tells the applicant. A registration decided meanwhile is a 409. */
  async approve(actor: Actor, userId: number): Promise<void> {
    assertModerator(actor);
    const now = toTimestamp(this.clock.now());
    const mailId = await this.uow.run(async () => {
      const user = await this.liveApplicant(userId);
      if (!(await this.holds.clearApproval(userId))) throw decided();
      await this.log.record({
        moderator_id: actor.userId,
        action_type: 'approve_signup',
        target_user_id: userId,
        reason: `Registration of @${user.username} approved`,
        created_at: now,
      });
      return this.mail.queue(userId, registrationApprovedMail(user, this.settings.instanceName));
    });
    this.mail.sendSoon([mailId]);
  }

  /**
   * Deletes the pending account with the eraser of delete_account.php (its row stays a tombstone, so
   * the name and address are free again and the log line keeps its target) and tells the applicant.
   */
  async reject(actor: Actor, userId: number, reason: string): Promise<void> {
    assertModerator(actor);
    const why = reason.trim().slice(0, 500);
    const now = toTimestamp(this.clock.now());
    const mailId = await this.uow.run(async () => {
      const user = await this.liveApplicant(userId);
      if (!(await this.holds.clearApproval(userId))) throw decided();
      // The eraser also forgets the hold and the confirmation links (registration's account-data part).
      await this.eraser.erase(userId, now);
      await this.log.record({
        moderator_id: actor.userId,
        action_type: 'reject_signup',
        target_user_id: userId,
        reason: `Registration of @${user.username} rejected${why ? `: ${why}` : ''}`,
        created_at: now,
      });
      // Not tied to the account: it is a tombstone now, and the eraser forgets mail addressed to it.
      return this.mail.queue(null, registrationRejectedMail(user, why, this.settings.instanceName));
    });
    this.mail.sendSoon([mailId]);
  }

  async invitationList(actor: Actor, page: PageRequest): Promise<ListPage<Invitation>> {
    assertAdmin(actor);
    return this.invitations.list(page);
  }

  /** The code is shown this once: only its hash and first characters are stored. */
  async createInvitation(
    actor: Actor,
    input: { maxUses: number; expiresInDays: number | null },
  ): Promise<{ invitation: Invitation; code: string }> {
    assertAdmin(actor);
    if (!Number.isSafeInteger(input.maxUses) || input.maxUses < 1 || input.maxUses > MAX_INVITATION_USES) {
      throw Invalid.field('max_uses', `must be a whole number from 1 to ${MAX_INVITATION_USES}`);
    }
    if (
      input.expiresInDays !== null &&
      (!Number.isSafeInteger(input.expiresInDays) || input.expiresInDays < 1 || input.expiresInDays > MAX_INVITATION_DAYS)
    ) {
      throw Invalid.field('expires_in_days', `must be empty (never) or a whole number of days from 1 to ${MAX_INVITATION_DAYS}`);
    }
    const code = this.secrets.generate().slice(0, INVITATION_CODE_LENGTH);
    const now = this.clock.now();
    const expires_at = input.expiresInDays === null ? null : toTimestamp(addSeconds(now, input.expiresInDays * 86_400));
    const invitation = await this.uow.run(async () => {
      const created = await this.invitations.create({
        code_hash: this.secrets.hash(code),
        code_hint: code.slice(0, 4),
        max_uses: input.maxUses,
        expires_at,
        created_by: actor.userId,
        created_at: toTimestamp(now),
      });
      const expiry = expires_at ? `until ${expires_at} UTC` : 'without expiry';
      await this.log.record({
        moderator_id: actor.userId,
        action_type: 'create_invite',
        target_user_id: actor.userId,
        reason: `Invitation #${created.id} (${created.code_hint}…) created: ${input.maxUses} use${input.maxUses === 1 ? '' : 's'}, ${expiry}`,
        created_at: toTimestamp(now),
      });
      return created;
    });
    return { invitation, code };
  }

  async revokeInvitation(actor: Actor, id: number): Promise<void> {
    assertAdmin(actor);
    const now = toTimestamp(this.clock.now());
    await this.uow.run(async () => {
      if (!(await this.invitations.revoke(id, now)))
        throw new NotFound('No such live invitation: it may have been revoked already', 'invitation_not_found');
      await this.log.record({
        moderator_id: actor.userId,
        action_type: 'revoke_invite',
        target_user_id: actor.userId,
        reason: `Invitation #${id} revoked`,
        created_at: now,
      });
    });
  }

  private async liveApplicant(userId: number) {
    const user = await this.users.findById(userId);
    if (!user || user.deleted_at !== null) throw new NotFound('No such pending registration', 'registration_not_found');
    return user;
  }
}

const decided = () =>
  new Conflict('This registration is not waiting for a decision (it was approved or rejected meanwhile)', 'registration_decided');

function assertModerator(actor: Actor): void {
  if (!actor.isModerator) throw new Forbidden('Only moderators and administrators decide registrations', 'moderator_only');
}

function assertAdmin(actor: Actor): void {
  if (!actor.isAdmin) throw new Forbidden('Only administrators manage invitations', 'admin_only');
}
