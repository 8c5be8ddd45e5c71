import 'reflect-metadata';
import {
  FollowService,
  FriendRequestRepository,
  FriendService,
  MessageGroupRepository,
  MessageGroupService,
  PrivateMessageRepository,
  PrivateMessageService,
  TypingRepository,
  TypingService,
} from '@plaza/domain';
import {
  AccessTokenRepository,
  AuthService,
  Clock,
  FollowRepository,
  InMemoryRateLimitStore,
  Mailer,
  NotificationRepository,
  NotificationService,
  PasswordHasher,
  PasswordResetRepository,
  ProfileService,
  ProfileStatsReader,
  PushSender,
  RateLimiter,
  RateLimitStore,
  SecretTokens,
  SystemClock,
  TotpVerifier,
  UserRepository,
} from '@plaza/domain';
import {
  CommentRepository,
  CommentService,
  EngagementService,
  NotificationInbox,
  NotificationInboxService,
  PostEngagementRepository,
  PostRepository,
  PostService,
  StoryRepository,
  StoryService,
} from '@plaza/domain';
import type { HttpServices } from '@plaza/adapters-http';
import {
  BcryptPasswordHasher,
  FileMailer,
  LoggingPushSender,
  NodeCryptoSecretTokens,
  OtplibTotp,
  SmtpMailer,
} from '@plaza/adapters-integrations';
import {
  SqlFriendRequestRepository,
  SqlMessageGroupRepository,
  SqlPrivateMessageRepository,
  SqlTypingRepository,
} from '@plaza/adapters-mysql';
import {
  pingDatabase,
  SqlAccessTokenRepository,
  SqlFollowRepository,
  SqlNotificationRepository,
  SqlPasswordResetRepository,
  SqlProfileStatsReader,
  SqlRateLimitStore,
  SqlUserRepository,
  type DatabaseHandle,
} from '@plaza/adapters-mysql';
import {
  SqlCommentRepository,
  SqlNotificationInbox,
  SqlPostEngagementRepository,
  SqlPostRepository,
  SqlStoryRepository,
} from '@plaza/adapters-mysql';
import { Container } from 'inversify';
import { join } from 'node:path';
import type { Logger } from 'pino';
import type { Config } from './config.js';
import { ConfiguredPublicSettings } from './public-settings.js';
import { TYPES } from './tokens.js';

/** Replacements for tests: a controllable clock, a recording mailer or push sender. */
export interface ContainerOverrides {
  clock?: Clock;
  mailer?: Mailer;
  push?: PushSender;
}

/**
 * The composition root: the only place that chooses an implementation for each port. Bindings use
 * toResolvedValue with explicit tokens, so neither the domain nor the adapters carry decorators.
 */
export function buildContainer(config: Config, handle: DatabaseHandle, logger: Logger, overrides: ContainerOverrides = {}): Container {
  const c = new Container({ defaultScope: 'Singleton' });
  const { db, dialect } = handle;

  c.bind(TYPES.Config).toConstantValue(config);
  c.bind(TYPES.Logger).toConstantValue(logger);
  c.bind(TYPES.Database).toConstantValue(handle);
  c.bind<Clock>(Clock).toConstantValue(overrides.clock ?? new SystemClock());

  // Driven adapters.
  c.bind<UserRepository>(UserRepository).toResolvedValue(() => new SqlUserRepository(db));
  c.bind<AccessTokenRepository>(AccessTokenRepository).toResolvedValue(() => new SqlAccessTokenRepository(db));
  c.bind<PasswordResetRepository>(PasswordResetRepository).toResolvedValue(() => new SqlPasswordResetRepository(db));
  c.bind<ProfileStatsReader>(ProfileStatsReader).toResolvedValue(() => new SqlProfileStatsReader(db));
  c.bind<FollowRepository>(FollowRepository).toResolvedValue(() => new SqlFollowRepository(db));
  c.bind<FriendRequestRepository>(FriendRequestRepository).toResolvedValue(() => new SqlFriendRequestRepository(db));
  c.bind<PrivateMessageRepository>(PrivateMessageRepository).toResolvedValue(() => new SqlPrivateMessageRepository(db, dialect));
  c.bind<MessageGroupRepository>(MessageGroupRepository).toResolvedValue(() => new SqlMessageGroupRepository(db));
  c.bind<TypingRepository>(TypingRepository).toResolvedValue(() => new SqlTypingRepository(db));
  c.bind<NotificationRepository>(NotificationRepository).toResolvedValue(() => new SqlNotificationRepository(db));
  c.bind<NotificationInbox>(NotificationInbox).toResolvedValue(() => new SqlNotificationInbox(db));
  c.bind<PostRepository>(PostRepository).toResolvedValue(() => new SqlPostRepository(db));
  c.bind<PostEngagementRepository>(PostEngagementRepository).toResolvedValue(() => new SqlPostEngagementRepository(db, dialect));
  c.bind<CommentRepository>(CommentRepository).toResolvedValue(() => new SqlCommentRepository(db, dialect));
  c.bind<StoryRepository>(StoryRepository).toResolvedValue(() => new SqlStoryRepository(db));
  c.bind<RateLimitStore>(RateLimitStore).toResolvedValue(() =>
    config.rateLimitStore === 'database' ? new SqlRateLimitStore(db, dialect) : new InMemoryRateLimitStore(),
  );
  c.bind<PasswordHasher>(PasswordHasher).toResolvedValue(() => new BcryptPasswordHasher(config.bcryptCost));
  c.bind<SecretTokens>(SecretTokens).toResolvedValue(() => new NodeCryptoSecretTokens());
  c.bind<OtplibTotp>(TYPES.Totp).toResolvedValue(() => new OtplibTotp());
  c.bind<TotpVerifier>(TotpVerifier).toService(TYPES.Totp);
  c.bind<Mailer>(Mailer).toResolvedValue(
    () =>
      overrides.mailer ??
      (config.smtpUrl
        ? new SmtpMailer(config.smtpUrl, config.mailFrom)
        : new FileMailer(join(config.dataDir, 'mail'), config.mailFrom, logger)),
  );
  c.bind<PushSender>(PushSender).toResolvedValue(() => overrides.push ?? new LoggingPushSender(logger));

  // Application services.
  c.bind(TYPES.AuthService).toResolvedValue(
    (
      users: UserRepository,
      tokens: AccessTokenRepository,
      resets: PasswordResetRepository,
      hasher: PasswordHasher,
      totp: TotpVerifier,
      secrets: SecretTokens,
      mailer: Mailer,
      clock: Clock,
    ) =>
      new AuthService(users, tokens, resets, hasher, totp, secrets, mailer, clock, {
        tokenTtlDays: config.tokenTtlDays,
        resetTtlMinutes: config.resetTtlMinutes,
        instanceName: config.domain,
      }),
    [UserRepository, AccessTokenRepository, PasswordResetRepository, PasswordHasher, TotpVerifier, SecretTokens, Mailer, Clock],
  );
  c.bind(TYPES.ProfileService).toResolvedValue((users: UserRepository, stats: ProfileStatsReader) => new ProfileService(users, stats), [UserRepository, ProfileStatsReader]);
  c.bind(TYPES.NotificationService).toResolvedValue(
    (repo: NotificationRepository, push: PushSender, clock: Clock) => new NotificationService(repo, push, clock),
    [NotificationRepository, PushSender, Clock],
  );
  // Content: posts, engagement, comments, stories, and the notification inbox.
  c.bind(TYPES.PostService).toResolvedValue(
    (posts: PostRepository, follows: FollowRepository, users: UserRepository, notifications: NotificationService, clock: Clock) =>
      new PostService(posts, follows, users, notifications, clock),
    [PostRepository, FollowRepository, UserRepository, TYPES.NotificationService, Clock],
  );
  c.bind(TYPES.EngagementService).toResolvedValue(
    (posts: PostService, engagement: PostEngagementRepository, notifications: NotificationService, clock: Clock) =>
      new EngagementService(posts, engagement, notifications, clock),
    [TYPES.PostService, PostEngagementRepository, TYPES.NotificationService, Clock],
  );
  c.bind(TYPES.CommentService).toResolvedValue(
    (posts: PostService, postRepo: PostRepository, comments: CommentRepository, users: UserRepository, notifications: NotificationService, clock: Clock) =>
      new CommentService(posts, postRepo, comments, users, notifications, clock),
    [TYPES.PostService, PostRepository, CommentRepository, UserRepository, TYPES.NotificationService, Clock],
  );
  c.bind(TYPES.StoryService).toResolvedValue(
    (stories: StoryRepository, posts: PostRepository, follows: FollowRepository, clock: Clock) => new StoryService(stories, posts, follows, clock),
    [StoryRepository, PostRepository, FollowRepository, Clock],
  );
  c.bind(TYPES.NotificationInboxService).toResolvedValue(
    (inbox: NotificationInbox, users: UserRepository, notifications: NotificationService) => new NotificationInboxService(inbox, users, notifications),
    [NotificationInbox, UserRepository, TYPES.NotificationService],
  );
  c.bind(TYPES.FollowService).toResolvedValue(
    (follows: FollowRepository, users: UserRepository, notifications: NotificationService, clock: Clock) => new FollowService(follows, users, notifications, clock),
    [FollowRepository, UserRepository, TYPES.NotificationService, Clock],
  );
  c.bind(TYPES.FriendService).toResolvedValue(
    (requests: FriendRequestRepository, users: UserRepository, notifications: NotificationService, clock: Clock) => new FriendService(requests, users, notifications, clock),
    [FriendRequestRepository, UserRepository, TYPES.NotificationService, Clock],
  );
  c.bind(TYPES.PrivateMessageService).toResolvedValue(
    (messages: PrivateMessageRepository, users: UserRepository, push: PushSender, clock: Clock) => new PrivateMessageService(messages, users, push, clock),
    [PrivateMessageRepository, UserRepository, PushSender, Clock],
  );
  c.bind(TYPES.MessageGroupService).toResolvedValue(
    (groups: MessageGroupRepository, users: UserRepository, push: PushSender, clock: Clock) => new MessageGroupService(groups, users, push, clock),
    [MessageGroupRepository, UserRepository, PushSender, Clock],
  );
  c.bind(TYPES.TypingService).toResolvedValue(
    (typing: TypingRepository, users: UserRepository, groups: MessageGroupService, clock: Clock) => new TypingService(typing, users, groups, clock),
    [TypingRepository, UserRepository, TYPES.MessageGroupService, Clock],
  );
  c.bind(TYPES.RateLimiter).toResolvedValue((store: RateLimitStore, clock: Clock) => new RateLimiter(store, config.rateLimits, clock), [RateLimitStore, Clock]);
  c.bind(TYPES.PublicSettings).toResolvedValue((clock: Clock) => new ConfiguredPublicSettings(config, clock), [Clock]);
  c.bind(TYPES.Health).toResolvedValue(
    (clock: Clock) => ({
      async check() {
        const reachable = await pingDatabase(db);
        return {
          status: reachable ? ('ok' as const) : ('degraded' as const),
          timestamp: clock.now().toISOString().slice(0, 19).replace('T', ' '),
          database: { reachable, dialect },
        };
      },
    }),
    [Clock],
  );
  return c;
}

/** What the HTTP adapter needs, resolved from the container. */
export function httpServices(c: Container, config: Config): HttpServices {
  return {
    clock: c.get<Clock>(Clock),
    auth: c.get(TYPES.AuthService),
    profiles: c.get(TYPES.ProfileService),
    settings: c.get(TYPES.PublicSettings),
    federation: { publicUrl: config.publicUrl, domain: config.domain },
    health: c.get(TYPES.Health),
    follows: c.get(TYPES.FollowService),
    friends: c.get(TYPES.FriendService),
    privateMessages: c.get(TYPES.PrivateMessageService),
    messageGroups: c.get(TYPES.MessageGroupService),
    typing: c.get(TYPES.TypingService),
    posts: c.get(TYPES.PostService),
    engagement: c.get(TYPES.EngagementService),
    comments: c.get(TYPES.CommentService),
    stories: c.get(TYPES.StoryService),
    notificationInbox: c.get(TYPES.NotificationInboxService),
  };
}
