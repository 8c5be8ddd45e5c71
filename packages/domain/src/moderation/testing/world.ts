import { aNewUser } from '../../accounts/testing/mothers.js';
import { InMemoryUserRepository } from '../../accounts/testing/in-memory-accounts.js';
import {
  InMemoryCommentRepository,
  InMemoryContentStore,
  InMemoryPostEngagementRepository,
  InMemoryPostRepository,
} from '../../content/testing/in-memory-content.js';
import { PostService } from '../../content/post-service.js';
import { NotificationService } from '../../notifications/notification-service.js';
import { EngagementNotices } from '../../notifications/engagement-notices.js';
import { EngagementEvents } from '../../content/engagement-events.js';
import { InMemoryNotificationRepository, RecordingPushSender } from '../../notifications/testing/in-memory-notifications.js';
import type { Actor } from '../../shared/actor.js';
import { ManualClock } from '../../shared/clock.js';
import { InMemoryUnitOfWork } from '../../shared/testing/in-memory-unit-of-work.js';
import { InMemoryFollowRepository } from '../../social/testing/in-memory-social.js';
import { ElectionService } from '../election-service.js';
import { FeatureSuggestionService } from '../feature-suggestion-service.js';
import { ReportService } from '../report-service.js';
import { ReportableWallPosts } from '../reportable-wall-posts.js';
import { DEFAULT_MODERATION_RULES, type ModerationRules } from '../rules.js';
import { SanctionService } from '../sanction-service.js';
import { InMemoryCandidacyRepository, InMemoryModeratorRoster } from './in-memory-elections.js';
import { InMemoryModerationLog, InMemoryReportRepository } from './in-memory-reports.js';
import { InMemorySanctionRepository } from './in-memory-sanctions.js';
import { InMemorySuspensionRepository } from './in-memory-suspensions.js';
import { InMemoryFeatureSuggestionRepository } from './in-memory-suggestions.js';
import { InMemoryUploads } from '../../media/testing/in-memory-uploads.js';

/**
 * The moderation services over in-memory fakes, with the content and notification services they use:
 * what the domain unit tests drive. Accounts are created a year before the clock's start, old enough
 * to vote in elections.
 */
export function moderationWorld(rules: Partial<ModerationRules> = {}) {
  const r = { ...DEFAULT_MODERATION_RULES, ...rules };
  const clock = new ManualClock('2026-06-01T12:00:00Z');
  const users = new InMemoryUserRepository();
  const follows = new InMemoryFollowRepository();
  const store = new InMemoryContentStore(users, follows);
  const postRepo = new InMemoryPostRepository(store);
  const notes = new InMemoryNotificationRepository();
  const push = new RecordingPushSender();
  const reports = new InMemoryReportRepository();
  const sanctionRepo = new InMemorySanctionRepository();
  const log = new InMemoryModerationLog();
  const candidacies = new InMemoryCandidacyRepository();
  const roster = new InMemoryModeratorRoster(users);
  const suggestionRepo = new InMemoryFeatureSuggestionRepository();
  const suspensions = new InMemorySuspensionRepository();
  const uow = new InMemoryUnitOfWork(users, follows, store, notes, reports, sanctionRepo, suspensions, log, candidacies, suggestionRepo);
  const notifications = new NotificationService(notes, push, clock);
  const posts = new PostService(
    postRepo,
    new InMemoryCommentRepository(store),
    new InMemoryPostEngagementRepository(store),
    follows,
    users,
    new EngagementEvents([new EngagementNotices(notifications)]),
    clock,
    uow,
    new InMemoryUploads(clock).references,
  );
  const sanctions = new SanctionService(sanctionRepo, users, clock, r, suspensions);
  const reportService = new ReportService(
    reports,
    sanctionRepo,
    sanctions,
    log,
    [new ReportableWallPosts(posts)],
    users,
    notifications,
    clock,
    uow,
    r,
  );
  const elections = new ElectionService(candidacies, roster, log, users, notifications, clock, uow, r);
  const suggestions = new FeatureSuggestionService(suggestionRepo, users, notifications, clock, uow);

  /** A new account acting with these role flags (its stored flags follow them). */
  const actor = async (flags: { admin?: boolean; moderator?: boolean; createdAt?: string } = {}): Promise<Actor> => {
    const u = await users.create(aNewUser({ created_at: flags.createdAt ?? '2025-06-01 12:00:00', is_admin: flags.admin ?? false }));
    if (flags.moderator) await roster.setModerator(u.id, true);
    return {
      userId: u.id,
      username: u.username,
      isAdmin: !!flags.admin,
      isModerator: !!(flags.admin || flags.moderator),
      isTechnician: false,
    };
  };
  /** The same account, acting with the roles it holds now (after an election, say). */
  const again = async (a: Actor): Promise<Actor> => {
    const u = (await users.findById(a.userId))!;
    return { ...a, isAdmin: u.is_admin, isModerator: u.is_admin || u.is_moderator };
  };
  return {
    rules: r,
    clock,
    users,
    store,
    notes,
    push,
    uow,
    reports,
    sanctionRepo,
    suspensions,
    log,
    candidacies,
    suggestionRepo,
    posts,
    sanctions,
    reportService,
    elections,
    suggestions,
    actor,
    again,
  };
}
