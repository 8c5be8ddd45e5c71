import type { UserRepository } from '../accounts/ports.js';
import type { UserRecord } from '../accounts/user.js';
import { canModerate, type Actor } from '../shared/actor.js';
import type { Clock } from '../shared/clock.js';
import { Forbidden, Invalid, NotFound } from '../shared/errors.js';
import { pageMeta, type PageMeta, type PageRequest } from '../shared/pagination.js';
import { toTimestamp } from '../shared/time.js';
import { canHost } from './hosts.js';
import { LIVE_REPORT_REASONS, MAX_REPORT_DESCRIPTION, type LiveRecord, type LiveReportRecord } from './model.js';
import type { LiveRepository } from './ports.js';

export interface ModerationState {
  moderator_user_ids: number[];
  blocked_user_ids: number[];
  my_is_moderator: boolean;
  my_chat_blocked: boolean;
  is_suspended: boolean;
  report_count: number;
}

export interface ReportOutcome {
  live: LiveRecord;
  report_count: number;
  is_suspended: boolean;
  already_reported: boolean;
}

export interface ReportQueueItem {
  report: LiveReportRecord;
  live: LiveRecord | null;
  creator: UserRecord | null;
  reporter: UserRecord | null;
}

/**
 * Moderation of lives: the creator appoints moderators for a live; its hosts block users from its
 * chat; any viewer reports it once, and a live reported by `suspendAt` distinct users is suspended
 * (kept listed with `is_suspended`, no longer broadcast). The platform's moderators read every report.
 */
export class LiveModerationService {
  constructor(
    private readonly lives: LiveRepository,
    private readonly users: UserRepository,
    private readonly clock: Clock,
    private readonly options: { suspendAt: number },
  ) {}

  private now() {
    return toTimestamp(this.clock.now());
  }

  async appointModerator(actor: Actor, liveId: number, userId: number): Promise<number[]> {
    const live = await this.find(liveId);
    if (live.user_id !== actor.userId && !canModerate(actor))
      throw new Forbidden('Only the creator appoints moderators', 'not_live_creator');
    if (userId === live.user_id) throw Invalid.field('user_id', 'the creator already runs this live');
    await this.existingUser(userId);
    await this.lives.addModerator(live.id, userId, this.now());
    return this.lives.moderatorIds(live.id);
  }

  async blockFromChat(actor: Actor, liveId: number, userId: number): Promise<number[]> {
    const live = await this.find(liveId);
    if (!(await canHost(this.lives, actor, live))) throw new Forbidden('Only the live’s hosts block users from its chat', 'not_live_host');
    if (userId === live.user_id || userId === actor.userId) throw Invalid.field('user_id', 'cannot block the creator or yourself');
    await this.existingUser(userId);
    await this.lives.blockChat(live.id, userId, this.now());
    return this.lives.blockedIds(live.id);
  }

  async state(actor: Actor, liveId: number): Promise<ModerationState> {
    const live = await this.find(liveId);
    const [moderators, blocked] = await Promise.all([this.lives.moderatorIds(live.id), this.lives.blockedIds(live.id)]);
    return {
      moderator_user_ids: moderators,
      blocked_user_ids: blocked,
      my_is_moderator: moderators.includes(actor.userId) || canModerate(actor),
      my_chat_blocked: blocked.includes(actor.userId),
      is_suspended: live.is_suspended,
      report_count: live.report_count,
    };
  }

  /** One report per user and live; reporting again answers the count as it stands. */
  async report(actor: Actor, liveId: number, input: { reason: string; description?: string | null }): Promise<ReportOutcome> {
    if (!(LIVE_REPORT_REASONS as readonly string[]).includes(input.reason))
      throw Invalid.field('reason', `must be one of ${LIVE_REPORT_REASONS.join(', ')}`);
    const description = input.description?.trim() || null;
    if (description && description.length > MAX_REPORT_DESCRIPTION)
      throw Invalid.field('description', `must be at most ${MAX_REPORT_DESCRIPTION} characters`);
    const live = await this.find(liveId);
    if (live.user_id === actor.userId) throw new Invalid('You cannot report your own live', 'own_live');
    const r = await this.lives.report(
      { live_id: live.id, reporter_id: actor.userId, reason: input.reason, description, created_at: this.now() },
      this.options.suspendAt,
    );
    return { live, report_count: r.report_count, is_suspended: r.is_suspended, already_reported: !r.added };
  }

  /** Every live report, newest first: the platform moderators' queue. */
  async queue(actor: Actor, page: PageRequest): Promise<{ items: ReportQueueItem[]; meta: PageMeta }> {
    if (!canModerate(actor)) throw new Forbidden('The reports queue is for moderators', 'not_moderator');
    const { items, total } = await this.lives.reports(page);
    const lives = new Map(
      (items.length ? await this.lives.findByIds([...new Set(items.map((r) => r.live_id))]) : []).map((l) => [l.id, l]),
    );
    const userIds = [...new Set([...items.map((r) => r.reporter_id), ...[...lives.values()].map((l) => l.user_id)])];
    const users = new Map((userIds.length ? await this.users.findByIds(userIds) : []).map((u) => [u.id, u]));
    return {
      items: items.map((report) => {
        const live = lives.get(report.live_id) ?? null;
        return { report, live, creator: live ? (users.get(live.user_id) ?? null) : null, reporter: users.get(report.reporter_id) ?? null };
      }),
      meta: pageMeta(page, total),
    };
  }

  private async find(liveId: number): Promise<LiveRecord> {
    const live = await this.lives.findById(liveId);
    if (!live) throw new NotFound('Live not found', 'live_not_found');
    return live;
  }

  private async existingUser(userId: number): Promise<void> {
    const u = await this.users.findById(userId);
    if (!u || u.deleted_at) throw new NotFound('User not found', 'user_not_found');
  }
}
