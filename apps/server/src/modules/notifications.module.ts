import { Clock, token, UnitOfWork } from '@plaza/domain';
import { NotificationEmails, NotificationPreferenceRepository, UserRepository } from '@plaza/domain/accounts';
import {
  NotificationInbox,
  NotificationInboxService,
  NotificationRepository,
  NotificationService,
  AfterCommitPushSender,
  EngagementNotices,
  PreferenceGatedPushSender,
  PushDeliveryService,
  PushOutbox,
  PushOutboxLane,
  PUSH_JOB,
  PushProviders,
  PushSender,
  SocialNotices,
  type PushProvider,
} from '@plaza/domain/notifications';
import { FollowEventListeners, FriendEventListeners } from '@plaza/domain/social';
import { EngagementListeners } from '@plaza/domain/content';
import { notificationsScript, listQuery as inboxQuery, markBody, testBody } from '@plaza/adapters-http/scripts/notifications';
import { LoggingPushSender } from '@plaza/adapters-integrations';
import { NtfyPushProvider, OneSignalPushProvider } from '@plaza/adapters-integrations/push';
import {
  NOTIFICATIONS_MIGRATIONS,
  SqlNotificationInbox,
  SqlNotificationRepository,
  SqlNotificationsAccountData,
  SqlPushOutbox,
} from '@plaza/adapters-mysql/notifications';
import { featureModule, useCases } from '../wiring/feature-module.js';
import { ConfigToken, DatabaseToken, LoggerToken } from '../wiring/tokens.js';
import { Accounts } from './accounts.module.js';
import { Platform } from './platform.module.js';
import { z } from 'zod';
import { ACTOR, arg } from '../library-input.js';

export const Notifications = {
  NotificationService: token<NotificationService>('notifications.NotificationService'),
  NotificationInboxService: token<NotificationInboxService>('notifications.NotificationInboxService'),
  /** What actually delivers a push (a provider, or the log); every service pushes through the gated `PushSender`. */
  PushTransport: token<PushSender>('notifications.PushTransport'),
  /** Delivery through the configured providers, with the outbox its retry job drains. */
  PushDelivery: token<PushDeliveryService>('notifications.PushDelivery'),
};

/** Raising a notification is the server's own step: checked for the shape the service reads. */
const newNotification = z.looseObject({
  user_id: z.number().int().positive(),
  from_user_id: z.number().int().positive().nullable(),
  type: z.string().min(1),
});

/**
 * What notifications offers outside the container (docs/decisions/0130): `createPlaza().notifications`,
 * raising notifications and the inbox, each method checking its input with its HTTP operation's schema (0113).
 */
const face = {
  name: 'notifications',
  library: {
    notifications: useCases(Notifications.NotificationService, {
      raise: [
        { ...arg('input', newNotification), parsed: false },
        arg('push', z.looseObject({ title: z.string(), body: z.string() }).optional()),
      ],
    }),
    inbox: useCases(Notifications.NotificationInboxService, {
      list: [
        ACTOR,
        arg('options', z.object({ page: inboxQuery.shape.page, perPage: inboxQuery.shape.per_page, unreadOnly: inboxQuery.shape.unread })),
      ],
      countUnread: [ACTOR],
      markRead: [ACTOR, arg('id', markBody.shape.id.unwrap())],
      markAllRead: [ACTOR],
      test: [ACTOR, arg('provider', testBody.shape.provider)],
    }),
  },
  ports: {
    // notifications (the inbox reads what content raises, so its cases live in the content suite)
    NotificationRepository: { suites: ['notifications/testing/notifications.contract.ts'], via: 'notifications' },
    NotificationInbox: {
      suites: ['content/testing/content.contract.ts', 'groups/testing/groups.contract.ts'],
      via: 'inbox',
    },
    PushSender: 'no SQL adapter',
    PushOutbox: { suites: ['notifications/testing/push-outbox.contract.ts'], via: 'outbox' },
  },
} as const;

/** Notifications raised by other contexts, the inbox that lists them, and push delivery. */
export const notificationsModule = featureModule(face, (w) => {
  w.accountData([DatabaseToken], ({ db }) => new SqlNotificationsAccountData(db));
  w.bind(NotificationRepository, [DatabaseToken], ({ db }) => new SqlNotificationRepository(db));
  w.bind(NotificationInbox, [DatabaseToken], ({ db }) => new SqlNotificationInbox(db));
  w.migrations(NOTIFICATIONS_MIGRATIONS);
  w.bind(PushOutbox, [DatabaseToken], ({ db }) => new SqlPushOutbox(db));
  w.bind(PushProviders, [ConfigToken], (config) => {
    const { oneSignalAppId, oneSignalApiKey, oneSignalApiUrl, ntfyServer, ntfyTopicPrefix } = config.push;
    const providers: PushProvider[] = [];
    if (oneSignalAppId && oneSignalApiKey)
      providers.push(new OneSignalPushProvider({ appId: oneSignalAppId, apiKey: oneSignalApiKey, apiUrl: oneSignalApiUrl }));
    if (ntfyServer) providers.push(new NtfyPushProvider({ server: ntfyServer, topicPrefix: ntfyTopicPrefix }));
    return providers;
  });
  w.construct(Notifications.PushDelivery, PushDeliveryService, [PushProviders, PushOutbox, Clock, LoggerToken]);
  // Without a provider, pushes are only logged (a development setup).
  w.bind(
    Notifications.PushTransport,
    { providers: PushProviders, delivery: Notifications.PushDelivery, logger: LoggerToken },
    ({ providers, delivery, logger }) => (providers.length ? delivery : new LoggingPushSender(logger)),
  );
  // The recipient's notification switches decide every push (user_preferences.php). A push that only
  // goes to the log (no provider configured) reaches nobody: it is logged without reading the
  // recipient's switches, one statement less for every message sent (issue 30).
  w.bind(
    PushSender,
    { transport: Notifications.PushTransport, preferences: NotificationPreferenceRepository, uow: UnitOfWork },
    ({ transport, preferences, uow }) =>
      new AfterCommitPushSender(
        transport instanceof LoggingPushSender ? transport : new PreferenceGatedPushSender(transport, preferences),
        uow,
      ),
  );

  w.bind(
    Notifications.NotificationService,
    {
      repo: NotificationRepository,
      push: PushSender,
      clock: Clock,
      preferences: NotificationPreferenceRepository,
      users: UserRepository,
      mail: Accounts.MailDelivery,
      config: ConfigToken,
    },
    ({ repo, push, clock, preferences, users, mail, config }) =>
      new NotificationService(repo, push, clock, preferences, new NotificationEmails(users, mail, { instanceName: config.domain })),
  );
  // Reactions, comments, shares and mentions of posts of every surface are told by listening to the
  // publishing core's events: content does not call notifications (issue 28).
  w.construct(EngagementListeners, EngagementNotices, [Notifications.NotificationService]);
  // Follows and friend requests likewise: social does not call notifications (issue 28).
  w.construct(FollowEventListeners, SocialNotices, [Notifications.NotificationService]);
  w.construct(FriendEventListeners, SocialNotices, [Notifications.NotificationService]);
  w.bind(
    Notifications.NotificationInboxService,
    {
      inbox: NotificationInbox,
      users: UserRepository,
      notifications: Notifications.NotificationService,
      delivery: Notifications.PushDelivery,
    },
    ({ inbox, users, notifications, delivery }) => new NotificationInboxService(inbox, users, notifications, () => delivery.configured()),
  );

  w.script([Notifications.NotificationInboxService, Platform.Presenters], notificationsScript);
  // Pushes a provider refused or could not take: retried with backoff (docs/decisions/0022).
  // Timers retry the due pushes every 30 s; BullMQ gets each due push relayed as one job (docs/decisions/0215).
  w.outboxJob(
    { name: PUSH_JOB, everyMs: 30_000 },
    [Notifications.PushDelivery, PushProviders, PushOutbox, Clock, LoggerToken],
    (delivery, providers, outbox, clock, logger) => ({
      run: () => delivery.retryDue(),
      outbox: new PushOutboxLane(providers, outbox, clock, logger),
    }),
  );
});
