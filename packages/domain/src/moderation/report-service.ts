import type { UserRepository } from '../accounts/ports.js';
import type { UserRecord } from '../accounts/user.js';
import type { NotificationService } from '../notifications/notification-service.js';
import { canModerate, type Actor } from '../shared/actor.js';
import type { Clock } from '../shared/clock.js';
import { Conflict, Forbidden, Invalid, NotFound } from '../shared/errors.js';
import { pageMeta, type PageMeta, type PageRequest } from '../shared/pagination.js';
import { toTimestamp } from '../shared/time.js';
import type { UnitOfWork } from '../shared/unit-of-work.js';
import { votesFor, type ReportDecision, type ReportRecord } from './model.js';
import type { ModerationLog, ReportableContent, ReportRepository, ReportTarget, SanctionRepository } from './ports.js';
import {
  ACTION_REASON_MAX,
  REPORT_DESCRIPTION_MAX,
  REPORT_OUTCOMES,
  REPORT_REASONS,
  type ReportedPostType,
  type ModerationRules,
  type ModeratorAction,
  type ReportOutcome,
} from './rules.js';
import type { SanctionService } from './sanction-service.js';
import { userMap } from '../accounts/user-map.js';

export interface ReportView {
  report: ReportRecord;
  reporter: UserRecord | null;
  /** The account the report is about (the reported account, or the post's author). */
  reported: UserRecord | null;
  my_vote: ReportOutcome | null;
}

/** A report in the admin panel's queue: the reported post's media as it is now, null when the post is gone. */
export interface QueuedReport extends ReportView {
  media: string[] | null;
}

export interface CreateReportInput {
  post_id?: number | null;
  /** Which kind of post `post_id` names: `post` (a wall post, the default), `group` or `page`. */
  post_type?: ReportedPostType | null;
  user_id?: number | null;
  reason: string;
  description?: string | null;
}

/** How a report came to be resolved, for the log, the warning and the notification. */
interface Decision {
  outcome: ReportOutcome;
  moderator: Actor;
  byVote: boolean;
  /** The moderator's own words for a direct warning; the report's reason otherwise. */
  reason?: string;
}

/**
 * The wall post a report links in notifications and the action log (their `post_id` is a wall post's):
 * none for a group or page post, which have ids of their own.
 */
function wallPostOf(report: ReportRecord): number | null {
  return report.post_type === 'post' ? report.post_id : null;
}

const REASON_LABELS: Record<string, string> = {
  spam: 'spam',
  harassment: 'harassment',
  hate_speech: 'hate speech',
  misinformation: 'misinformation',
  violence: 'violence',
  other: 'inappropriate content',
};

/**
 * Reports on posts and accounts, judged by the moderators (docs/decisions/0012). Any member reports;
 * moderators (admins included, see `isModerator`) see the queue, reported content of private accounts
 * included, and vote: the first outcome to reach `reportVotes` votes resolves the report, once. A
 * moderator may also decide alone (`moderator_action`). Members who are not moderators see only the
 * reports they filed.
 *
 * Every decision runs in one unit of work that first takes the lock of the account it falls on, then
 * the report's: concurrent votes resolve it once, warn once, ban at most once and notify once.
 */
export class ReportService {
  constructor(
    private readonly reports: ReportRepository,
    private readonly sanctionsRepo: SanctionRepository,
    private readonly sanctions: SanctionService,
    private readonly log: ModerationLog,
    /** Every kind of post that may be reported, from the contexts that own them. */
    private readonly contents: readonly ReportableContent[],
    private readonly users: UserRepository,
    private readonly notifications: NotificationService,
    private readonly clock: Clock,
    private readonly uow: UnitOfWork,
    private readonly rules: ModerationRules,
  ) {}

  async create(actor: Actor, input: CreateReportInput): Promise<ReportView> {
    const postId = input.post_id ?? null;
    const userId = input.user_id ?? null;
    if ((postId === null) === (userId === null)) {
      throw new Invalid('Report either a post (post_id) or an account (user_id)', 'invalid_target', [
        { field: 'post_id', problem: 'send post_id or user_id, not both' },
      ]);
    }
    if (!(REPORT_REASONS as readonly string[]).includes(input.reason))
      throw Invalid.field('reason', `must be one of ${REPORT_REASONS.join(', ')}`, 'invalid_reason');
    const description = (input.description ?? '').trim();
    if (description.length > REPORT_DESCRIPTION_MAX)
      throw Invalid.field('description', `must be at most ${REPORT_DESCRIPTION_MAX} characters`);

    let targetUserId: number;
    let postContent: string | null = null;
    const postType = input.post_type ?? 'post';
    if (postId !== null) {
      // A post the reporter may not see is as unknown to them as a missing one.
      const post = await this.kind(postType).find(actor, postId);
      if (post.author_id === actor.userId) throw Invalid.field('post_id', 'you cannot report your own post', 'cannot_report_self');
      targetUserId = post.author_id;
      postContent = post.content;
    } else {
      if (userId === actor.userId) throw Invalid.field('user_id', 'you cannot report yourself', 'cannot_report_self');
      if (!(await this.users.findById(userId!))) throw new NotFound('User not found', 'user_not_found');
      targetUserId = userId!;
    }
    const report = await this.reports.create({
      reporter_id: actor.userId,
      post_id: postId,
      post_type: postId !== null ? postType : 'post',
      user_id: userId,
      target_user_id: targetUserId,
      reason: input.reason,
      description,
      post_content: postContent,
      created_at: toTimestamp(this.clock.now()),
    });
    if (!report) throw new Conflict('You already reported this; your report is pending', 'already_reported');
    return (await this.views(actor, [report]))[0];
  }

  /** Moderators: the whole queue of that status. Everyone else: the reports they filed. */
  async list(actor: Actor, status: 'pending' | 'resolved', page: PageRequest): Promise<{ items: ReportView[]; meta: PageMeta }> {
    const { items, total } = await this.reports.list(status, canModerate(actor) ? null : actor.userId, page);
    return { items: await this.views(actor, items), meta: pageMeta(page, total) };
  }

  /**
   * The admin panel's queue (docs/decisions/0105): moderators only; each report on a post with the
   * post's media as it is now (`null` when the post is gone or hidden even from moderators), beside
   * the text stored when it was reported.
   */
  async queue(actor: Actor, status: 'pending' | 'resolved', page: PageRequest): Promise<{ items: QueuedReport[]; meta: PageMeta }> {
    if (!canModerate(actor)) throw new Forbidden('Only moderators see the reports queue', 'not_moderator');
    const { items, meta } = await this.list(actor, status, page);
    const queued = await Promise.all(items.map(async (view) => ({ ...view, media: await this.mediaOf(actor, view.report) })));
    return { items: queued, meta };
  }

  /** Reports whose decision falls on the account, newest first: moderators only (the admin panel's user page). */
  async aboutUser(actor: Actor, userId: number, page: PageRequest): Promise<{ items: ReportView[]; meta: PageMeta }> {
    if (!canModerate(actor)) throw new Forbidden('Only moderators see reports about an account', 'not_moderator');
    const { items, total } = await this.reports.aboutUser(userId, page);
    return { items: await this.views(actor, items), meta: pageMeta(page, total) };
  }

  private async mediaOf(actor: Actor, report: ReportRecord): Promise<string[] | null> {
    if (report.post_id === null) return [];
    try {
      return (await this.kind(report.post_type).find(actor, report.post_id)).media;
    } catch (error) {
      if (error instanceof NotFound || error instanceof Invalid) return null;
      throw error;
    }
  }

  /** A moderator's vote, or `cancel` to withdraw it; `resolved` when this vote decided the report. */
  async vote(actor: Actor, reportId: number, vote: ReportOutcome | 'cancel'): Promise<{ report: ReportView; resolved: boolean }> {
    if (vote !== 'cancel' && !(REPORT_OUTCOMES as readonly string[]).includes(vote)) {
      throw Invalid.field('vote', `must be one of ${REPORT_OUTCOMES.join(', ')} or cancel`, 'invalid_vote');
    }
    const report = await this.judgeable(actor, reportId);
    if (vote === 'remove' && report.post_id === null) {
      throw Invalid.field('vote', 'a report about an account has no post to remove: vote warn or keep', 'invalid_vote');
    }
    return this.decidingAbout(report, async (current) => {
      const now = toTimestamp(this.clock.now());
      await this.reports.setVote(current.id, actor.userId, vote === 'cancel' ? null : vote, now);
      const counted = (await this.reports.findById(current.id))!;
      const reached = vote !== 'cancel' && votesFor(counted, vote) >= this.rules.reportVotes;
      if (reached) await this.decide(counted, { outcome: vote, moderator: actor, byVote: true });
      return { report: (await this.views(actor, [(await this.reports.findById(current.id))!]))[0], resolved: reached };
    });
  }

  /** One moderator decides alone: `delete_post` removes the post and warns its author; `warn_user` warns. */
  async act(actor: Actor, reportId: number, action: ModeratorAction, reason?: string | null): Promise<ReportView> {
    if (action !== 'delete_post' && action !== 'warn_user')
      throw Invalid.field('moderator_action', 'must be delete_post or warn_user', 'invalid_action');
    const words = (reason ?? '').trim();
    if (words.length > ACTION_REASON_MAX) throw Invalid.field('reason', `must be at most ${ACTION_REASON_MAX} characters`);
    const report = await this.judgeable(actor, reportId);
    if (action === 'delete_post' && report.post_id === null) {
      throw Invalid.field('moderator_action', 'a report about an account has no post to delete: use warn_user', 'invalid_action');
    }
    return this.decidingAbout(report, async (current) => {
      await this.decide(current, {
        outcome: action === 'delete_post' ? 'remove' : 'warn',
        moderator: actor,
        byVote: false,
        reason: words || undefined,
      });
      return (await this.views(actor, [(await this.reports.findById(current.id))!]))[0];
    });
  }

  /** The reporter withdraws a pending report, named by its id or by its target. */
  async cancel(actor: Actor, which: { report_id: number } | ReportTarget): Promise<void> {
    let report: ReportRecord | null;
    if ('report_id' in which) {
      report = await this.reports.findById(which.report_id);
      if (!report) throw new NotFound('Report not found', 'report_not_found');
      if (report.reporter_id !== actor.userId) throw new Forbidden('Only its reporter can cancel a report', 'not_reporter');
    } else {
      report = await this.reports.findPending(actor.userId, which);
      if (!report) throw new NotFound('You have no pending report on this', 'report_not_found');
    }
    // One conditional write: a report resolved meanwhile stays resolved.
    if (!(await this.reports.cancel(report.id, toTimestamp(this.clock.now()))))
      throw new Conflict('This report is no longer pending', 'report_not_pending');
  }

  /** The report, if the actor may judge it: moderators only, never about themselves. */
  private async judgeable(actor: Actor, reportId: number): Promise<ReportRecord> {
    if (!canModerate(actor)) throw new Forbidden('Only moderators judge reports', 'not_moderator');
    const report = await this.reports.findById(reportId);
    if (!report) throw new NotFound('Report not found', 'report_not_found');
    if (report.target_user_id === actor.userId) throw new Forbidden('You cannot judge a report about yourself', 'own_case');
    return report;
  }

  /**
   * Runs a decision about a report in one unit of work whose first steps lock the account it falls on
   * and then the report, and refuses a report that is no longer pending (read after the locks).
   */
  private decidingAbout<T>(report: ReportRecord, work: (current: ReportRecord) => Promise<T>): Promise<T> {
    return this.uow.run(async () => {
      await this.sanctionsRepo.lockUser(report.target_user_id);
      await this.reports.lock(report.id);
      const current = await this.reports.findById(report.id);
      if (!current || current.status !== 'pending') throw new Conflict('This report is already resolved', 'report_not_pending');
      return work(current);
    });
  }

  /** Resolves the report and carries its outcome out; inside `decidingAbout`'s unit. */
  private async decide(report: ReportRecord, d: Decision): Promise<void> {
    const now = toTimestamp(this.clock.now());
    const decision: ReportDecision = { resolution: d.outcome, resolved_by: d.moderator.userId, resolved_at: now };
    if (!(await this.reports.resolve(report.id, decision))) throw new Conflict('This report is already resolved', 'report_not_pending');
    if (d.outcome === 'keep') {
      await this.notifications.raise(
        {
          user_id: report.reporter_id,
          from_user_id: null,
          type: 'report_closed',
          post_id: wallPostOf(report),
          content: 'The moderators reviewed your report and kept the content',
        },
        { title: 'Moderation', body: 'The moderators reviewed your report and kept the content' },
      );
      return;
    }
    const label = REASON_LABELS[report.reason] ?? report.reason;
    let reason = d.reason ?? label;
    if (d.outcome === 'remove' && report.post_id !== null) {
      await this.removePost(d.moderator, report.post_type, report.post_id);
      // Nothing is left to judge in the other reports on the post: they end with this decision.
      await this.reports.resolvePendingOnPost({ post_id: report.post_id, post_type: report.post_type }, decision);
      reason = `post removed (${reason})`;
    }
    const issued = await this.sanctions.issueWarning({
      userId: report.target_user_id,
      issuedBy: d.moderator.userId,
      reportId: report.id,
      reason,
    });
    await this.log.record({
      moderator_id: d.moderator.userId,
      action_type: d.outcome === 'remove' ? 'delete_post' : 'warning',
      target_user_id: report.target_user_id,
      report_id: report.id,
      post_id: wallPostOf(report),
      reason,
      by_vote: d.byVote,
      created_at: now,
    });
    const text = issued.ban
      ? `You received a warning (${reason}) and your account is banned ${issued.ban.is_permanent ? 'permanently' : `until ${issued.ban.expires_at} UTC`}`
      : `You received a warning from the moderators: ${reason}`;
    await this.notifications.raise(
      { user_id: report.target_user_id, from_user_id: null, type: issued.ban ? 'ban' : 'warning', content: text },
      { title: 'Moderation', body: text },
    );
  }

  /** Through the context that owns the post, with the deciding moderator as the actor; a post its author deleted meanwhile is gone already. */
  private async removePost(moderator: Actor, type: ReportedPostType, postId: number): Promise<void> {
    try {
      await this.kind(type).remove(moderator, postId);
    } catch (error) {
      if (!(error instanceof NotFound)) throw error;
    }
  }

  private kind(type: ReportedPostType): ReportableContent {
    const kind = this.contents.find((c) => c.type === type);
    if (!kind) throw Invalid.field('post_type', `must be one of ${this.contents.map((c) => c.type).join(', ')}`, 'invalid_post_type');
    return kind;
  }

  private async views(actor: Actor, items: ReportRecord[]): Promise<ReportView[]> {
    if (items.length === 0) return [];
    const users = await userMap(
      this.users,
      items.flatMap((r) => [r.reporter_id, r.target_user_id]),
    );
    const mine = canModerate(actor)
      ? await this.reports.votesOf(
          actor.userId,
          items.map((r) => r.id),
        )
      : new Map<number, ReportOutcome>();
    return items.map((r) => ({
      report: r,
      reporter: users.get(r.reporter_id) ?? null,
      reported: users.get(r.target_user_id) ?? null,
      my_vote: mine.get(r.id) ?? null,
    }));
  }
}
