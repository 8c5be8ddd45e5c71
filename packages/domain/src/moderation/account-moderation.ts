import type { AccountEraser } from '../accounts/account-deletion.js';
import type { MailDeliveryService } from '../accounts/mail-outbox.js';
import { twoFactorResetMail } from '../accounts/mail-templates.js';
import type { AccessTokenRepository, ListedToken, UserRepository } from '../accounts/ports.js';
import type { ProfileStats, ProfileStatsReader } from '../accounts/profile-service.js';
import type { RecoveryCodeRepository } from '../accounts/two-factor.js';
import type { UserRecord } from '../accounts/user.js';
import type { RosterUser } from '../admin/model.js';
import type { AdminRoster } from '../admin/ports.js';
import { canModerate, type Actor } from '../shared/actor.js';
import type { Clock } from '../shared/clock.js';
import { Conflict, Forbidden, Invalid, NotFound } from '../shared/errors.js';
import { pageRequest, type PageRequest } from '../shared/pagination.js';
import { toTimestamp, type Timestamp } from '../shared/time.js';
import type { UnitOfWork } from '../shared/unit-of-work.js';
import type { BanRecord, NewModerationAction, SuspensionRecord, WarningRecord } from './model.js';
import type { ModerationLog, SanctionRepository, SuspensionRepository } from './ports.js';
import { SUSPENSION_REASON_MAX } from './rules.js';

/** What one may do to an account from the admin panel: the page shows these, the service enforces them. */
export type AccountAction = 'suspend' | 'unsuspend' | 'delete' | 'reset_two_factor';

export interface ListedAccount extends RosterUser {
  suspended: boolean;
}

export interface AccountOverview {
  user: UserRecord;
  stats: ProfileStats;
  /** Sessions (access tokens) neither revoked nor expired, newest first, with when each was last used. */
  sessions: ListedToken[];
  suspension: SuspensionRecord | null;
  /** Every ban, newest first; `active` tells the one in force. */
  bans: (BanRecord & { active: boolean })[];
  warnings: WarningRecord[];
  warning_count: number;
  /** What the viewing actor may do to this account now. */
  allowed: Record<AccountAction, boolean>;
}

const WARNINGS_SHOWN = 20;

/**
 * Who may act on an account from the admin panel (docs/decisions/0105), the one place the rule is
 * written: moderators (administrators included) search, read an account and suspend or unsuspend it;
 * only administrators delete an account or reset its two-factor. Nobody acts on their own account
 * here (delete_account.php and two_factor.php are the owner's), an administrator is never suspended
 * or deleted (their role is withdrawn first, on the technicians page), and only an administrator
 * suspends a moderator.
 */
export function refusal(
  actor: Actor,
  target: Pick<UserRecord, 'id' | 'is_admin' | 'is_moderator'>,
  action: AccountAction,
): Forbidden | null {
  if (!canModerate(actor)) return new Forbidden('Only moderators and administrators moderate accounts', 'not_moderator');
  if ((action === 'delete' || action === 'reset_two_factor') && !actor.isAdmin) {
    return new Forbidden(
      action === 'delete' ? 'Only administrators delete accounts' : 'Only administrators reset two-factor authentication',
      'not_admin',
    );
  }
  if (target.id === actor.userId) return new Forbidden('Not on your own account: use your own settings for it', 'own_account');
  if (target.is_admin && action !== 'reset_two_factor') {
    return new Forbidden('An administrator is not suspended or deleted: withdraw the administrator role first', 'target_is_admin');
  }
  if (target.is_moderator && !actor.isAdmin) return new Forbidden('Only administrators suspend a moderator', 'target_is_moderator');
  return null;
}

/**
 * The admin panel's Users pages: search, an account's overview, and the actions on it. Each action
 * runs in one unit of work that first takes the account's lock (the one report decisions take), is
 * one conditional change (suspended once, lifted once, erased once, reset once: the second of two
 * concurrent clicks gets 409 and changes nothing) and writes its line of the moderators' log with it.
 */
export class AccountModerationService {
  constructor(
    private readonly roster: AdminRoster,
    private readonly profiles: ProfileStatsReader,
    private readonly users: UserRepository,
    private readonly tokens: AccessTokenRepository,
    private readonly recovery: RecoveryCodeRepository,
    private readonly eraser: AccountEraser,
    private readonly mail: MailDeliveryService,
    private readonly suspensions: SuspensionRepository,
    private readonly sanctions: SanctionRepository,
    private readonly log: ModerationLog,
    private readonly clock: Clock,
    private readonly uow: UnitOfWork,
    private readonly settings: { instanceName: string },
  ) {}

  /** Accounts whose username or e-mail starts with `query` (the roster's index-backed prefix search), by username. */
  async search(actor: Actor, query: string | null, page: PageRequest): Promise<{ items: ListedAccount[]; more: boolean }> {
    assertModerator(actor);
    const q = query?.trim() || null;
    const found = await this.roster.search(q ? q.slice(0, 191) : null, page);
    const suspended = await this.suspensions.suspendedAmong(found.items.map((u) => u.id));
    return { items: found.items.map((u) => ({ ...u, suspended: suspended.has(u.id) })), more: found.more };
  }

  async overview(actor: Actor, userId: number): Promise<AccountOverview> {
    assertModerator(actor);
    const found = await this.profiles.profileOf(userId, null);
    if (!found || found.user.deleted_at !== null) throw new NotFound('User not found', 'user_not_found');
    const now = this.now();
    const [sessions, suspension, bans, warnings] = await Promise.all([
      this.tokens.listActiveOfUser(userId, now),
      this.suspensions.find(userId),
      this.sanctions.bansOf(userId),
      this.sanctions.warnings(userId, pageRequest(1, WARNINGS_SHOWN)),
    ]);
    const active = await this.sanctions.activeBan(userId, now);
    const allowed = (action: AccountAction) => refusal(actor, found.user, action) === null;
    return {
      user: found.user,
      stats: found.stats,
      sessions,
      suspension,
      bans: bans.map((b) => ({ ...b, active: b.id === active?.id })),
      warnings: warnings.items,
      warning_count: warnings.total,
      allowed: {
        suspend: allowed('suspend') && suspension === null,
        unsuspend: allowed('unsuspend') && suspension !== null,
        delete: allowed('delete'),
        reset_two_factor: allowed('reset_two_factor') && found.user.totp_enabled,
      },
    };
  }

  /**
   * Suspends the account and ends its sessions (every access token revoked, admin panel sessions
   * included): what it had open stops at once, and a new login is refused by admission (403 `suspended`).
   */
  async suspend(actor: Actor, userId: number, reason: string): Promise<void> {
    const words = reason.trim();
    if (!words) throw Invalid.field('reason', 'say why the account is suspended', 'reason_required');
    if (words.length > SUSPENSION_REASON_MAX) throw Invalid.field('reason', `must be at most ${SUSPENSION_REASON_MAX} characters`);
    await this.target(actor, userId, 'suspend');
    const now = this.now();
    await this.uow.run(async () => {
      await this.sanctions.lockUser(userId);
      if (!(await this.suspensions.suspend({ user_id: userId, suspended_by: actor.userId, reason: words, created_at: now }))) {
        throw new Conflict('This account is already suspended', 'already_suspended');
      }
      await this.tokens.revokeAllOfUser(userId, now);
      await this.log.record(this.entry(actor, userId, 'suspend', `account suspended: ${words}`, now));
    });
  }

  async unsuspend(actor: Actor, userId: number): Promise<void> {
    await this.target(actor, userId, 'unsuspend');
    const now = this.now();
    await this.uow.run(async () => {
      await this.sanctions.lockUser(userId);
      const lifted = await this.suspensions.lift(userId);
      if (!lifted) throw new Conflict('This account is not suspended', 'not_suspended');
      await this.log.record(this.entry(actor, userId, 'unsuspend', `suspension lifted (it said: ${lifted.reason})`.slice(0, 600), now));
    });
  }

  /** Erases the account with delete_account.php's eraser (docs/decisions/0090); the log keeps its former username. */
  async delete(actor: Actor, userId: number): Promise<void> {
    const target = await this.target(actor, userId, 'delete');
    const now = this.now();
    await this.uow.run(async () => {
      await this.sanctions.lockUser(userId);
      // Read after the lock: of two deletions at once, the second finds the tombstone.
      const current = await this.users.findById(userId);
      if (!current || current.deleted_at !== null) throw new Conflict('This account is already deleted', 'already_deleted');
      await this.eraser.erase(userId, now);
      await this.log.record(this.entry(actor, userId, 'delete_account', `account @${target.username} deleted by an administrator`, now));
    });
  }

  /** Turns two-factor off and forgets the recovery codes; the owner is told by e-mail (the outbox, after commit). */
  async resetTwoFactor(actor: Actor, userId: number): Promise<void> {
    const target = await this.target(actor, userId, 'reset_two_factor');
    const now = this.now();
    const mailId = await this.uow.run(async () => {
      await this.sanctions.lockUser(userId);
      if (!(await this.users.disableTotp(userId)))
        throw new Conflict('Two-factor authentication is not on for this account', 'two_factor_off');
      await this.recovery.deleteAll(userId);
      await this.log.record(this.entry(actor, userId, 'reset_two_factor', 'two-factor authentication reset by an administrator', now));
      return this.mail.queue(userId, twoFactorResetMail(target, now, this.settings.instanceName));
    });
    this.mail.sendSoon([mailId]);
  }

  /** The account, when it exists and the actor may do `action` to it. */
  private async target(actor: Actor, userId: number, action: AccountAction): Promise<UserRecord> {
    assertModerator(actor);
    const user = await this.users.findById(userId);
    if (!user || user.deleted_at !== null) throw new NotFound('User not found', 'user_not_found');
    const refused = refusal(actor, user, action);
    if (refused) throw refused;
    return user;
  }

  private entry(
    actor: Actor,
    userId: number,
    type: NewModerationAction['action_type'],
    reason: string,
    at: Timestamp,
  ): NewModerationAction {
    return {
      moderator_id: actor.userId,
      action_type: type,
      target_user_id: userId,
      report_id: null,
      post_id: null,
      reason,
      by_vote: false,
      created_at: at,
    };
  }

  private now(): Timestamp {
    return toTimestamp(this.clock.now());
  }
}

function assertModerator(actor: Actor): void {
  if (!canModerate(actor)) throw new Forbidden('Only moderators and administrators moderate accounts', 'not_moderator');
}
