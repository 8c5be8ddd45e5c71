import type { UserRepository } from '../accounts/ports.js';
import type { UserRecord } from '../accounts/user.js';
import type { Actor } from '../shared/actor.js';
import type { Clock } from '../shared/clock.js';
import { Forbidden } from '../shared/errors.js';
import { pageMeta, pageRequest, type PageMeta, type PageRequest } from '../shared/pagination.js';
import { addSeconds, toTimestamp } from '../shared/time.js';
import { type BanRecord, type SuspensionRecord, type WarningRecord } from './model.js';
import type { SanctionRepository, SuspensionRepository } from './ports.js';
import type { ModerationRules } from './rules.js';
import { userMap } from '../accounts/user-map.js';

export interface WarningView {
  warning: WarningRecord;
  target: UserRecord | null;
  issued_by: UserRecord | null;
}

export interface BanView {
  ban: BanRecord;
  target: UserRecord | null;
  banned_by: UserRecord | null;
}

export interface MySanctions {
  /** The ban in force, if any. */
  ban: BanRecord | null;
  /** The account's suspension, if any (docs/decisions/0105): the app shows it on its ban screen. */
  suspension: SuspensionRecord | null;
  warnings: WarningRecord[];
  warning_count: number;
}

export interface IssuedWarning {
  warning: WarningRecord;
  /** The ban this warning brought, when it was the one too many. */
  ban: BanRecord | null;
}

const DAY_SECONDS = 86_400;

/**
 * Warnings and bans. A warning is issued by a moderator's decision on a report; warnings pile up into a
 * ban (temporary, then permanent after `permanentAfterBans`); a temporary ban lapses at its expiry by
 * itself. A banned account is refused everywhere except login and its own sanctions, and so is a
 * suspended one (`admit`).
 */
export class SanctionService {
  constructor(
    private readonly sanctions: SanctionRepository,
    private readonly users: UserRepository,
    private readonly clock: Clock,
    private readonly rules: ModerationRules,
    private readonly suspensions: SuspensionRepository,
  ) {}

  /**
   * Refuses an account that may not use Plaza now: a suspended one with 403 `suspended` (an
   * administrator's decision, docs/decisions/0105), a banned one with 403 `banned`. The HTTP layer
   * calls it after authentication, except where the operation serves such accounts (login, own sanctions).
   */
  async admit(actor: Actor): Promise<void> {
    if (await this.suspensions.find(actor.userId)) {
      throw new Forbidden('Your account is suspended by the moderators of this instance', 'suspended');
    }
    await this.assertNotBanned(actor);
  }

  /** Refuses a banned account with 403 `banned`. */
  async assertNotBanned(actor: Actor): Promise<void> {
    const ban = await this.sanctions.activeBan(actor.userId, toTimestamp(this.clock.now()));
    if (!ban) return;
    const until = ban.is_permanent ? 'permanently' : `until ${ban.expires_at} UTC`;
    throw new Forbidden(`Your account is banned ${until}: ${ban.reason}`, 'banned');
  }

  /** sanctions.php?type=mine: the ban in force, the suspension, and the first page of one's own warnings. */
  async mine(actor: Actor, page: PageRequest = pageRequest()): Promise<MySanctions> {
    const ban = await this.sanctions.activeBan(actor.userId, toTimestamp(this.clock.now()));
    const warnings = await this.sanctions.warnings(actor.userId, page);
    const suspension = await this.suspensions.find(actor.userId);
    return { ban, suspension, warnings: warnings.items, warning_count: warnings.total };
  }

  /** sanctions.php?type=all: warnings and bans are public, newest first, a page of each. */
  async all(
    _actor: Actor,
    page: PageRequest,
  ): Promise<{ warnings: WarningView[]; bans: BanView[]; warnings_meta: PageMeta; bans_meta: PageMeta }> {
    const warnings = await this.sanctions.warnings(null, page);
    const bans = await this.sanctions.bans(page);
    const users = await userMap(this.users, [
      ...warnings.items.flatMap((w) => [w.user_id, w.issued_by]),
      ...bans.items.flatMap((b) => [b.user_id, b.banned_by]),
    ]);
    const get = (id: number | null) => (id === null ? null : (users.get(id) ?? null));
    return {
      warnings: warnings.items.map((w) => ({ warning: w, target: get(w.user_id), issued_by: get(w.issued_by) })),
      bans: bans.items.map((b) => ({ ban: b, target: get(b.user_id), banned_by: get(b.banned_by) })),
      warnings_meta: pageMeta(page, warnings.total),
      bans_meta: pageMeta(page, bans.total),
    };
  }

  /**
   * Warns the account and, when this warning is one too many, bans it. Runs inside the caller's unit
   * of work, which must have taken `SanctionRepository.lockUser(userId)` as its first step: the count
   * and the ban are then decided once, whatever decisions about the account run at the same time.
   * Warnings before the last ban were paid for by it; an account already banned is not banned twice.
   */
  async issueWarning(input: { userId: number; issuedBy: number; reportId: number | null; reason: string }): Promise<IssuedWarning> {
    const now = this.clock.now();
    const at = toTimestamp(now);
    const warning = await this.sanctions.addWarning({
      user_id: input.userId,
      issued_by: input.issuedBy,
      report_id: input.reportId,
      reason: input.reason,
      created_at: at,
    });
    const bans = await this.sanctions.bansOf(input.userId);
    if (await this.sanctions.activeBan(input.userId, at)) return { warning, ban: null };
    const windowStart = toTimestamp(addSeconds(now, -this.rules.warningWindowDays * DAY_SECONDS));
    const after = bans.length && bans[0].created_at > windowStart ? bans[0].created_at : windowStart;
    const count = await this.sanctions.countWarningsAfter(input.userId, after);
    if (count < this.rules.warningsBeforeBan) return { warning, ban: null };
    const permanent = bans.length >= this.rules.permanentAfterBans;
    const ban = await this.sanctions.addBan({
      user_id: input.userId,
      banned_by: input.issuedBy,
      reason: `${count} warnings within ${this.rules.warningWindowDays} days; the last one: ${input.reason}`,
      is_permanent: permanent,
      expires_at: permanent ? null : toTimestamp(addSeconds(now, this.rules.banDays * DAY_SECONDS)),
      created_at: at,
    });
    return { warning, ban };
  }
}
