import { Clock, token } from '@plaza/domain';
import { UserRepository } from '@plaza/domain/accounts';
import { NotificationInbox, NotificationInboxService, NotificationRepository, NotificationService, PushSender } from '@plaza/domain/notifications';
import { notificationsScript } from '@plaza/adapters-http/scripts/notifications';
import { LoggingPushSender } from '@plaza/adapters-integrations';
import { SqlNotificationInbox, SqlNotificationRepository } from '@plaza/adapters-mysql/notifications';
import { featureModule } from '../wiring/feature-module.js';
import { DatabaseToken, LoggerToken } from '../wiring/tokens.js';
import { Platform } from './platform.module.js';

export const Notifications = {
  NotificationService: token<NotificationService>('notifications.NotificationService'),
  NotificationInboxService: token<NotificationInboxService>('notifications.NotificationInboxService'),
};

/** Notifications raised by other contexts, the inbox that lists them, and push delivery. */
export const notificationsModule = featureModule((w) => {
  w.bind(NotificationRepository, [DatabaseToken], ({ db }) => new SqlNotificationRepository(db));
  w.bind(NotificationInbox, [DatabaseToken], ({ db }) => new SqlNotificationInbox(db));
  w.bind(PushSender, [LoggerToken], (logger) => new LoggingPushSender(logger));

  w.bind(Notifications.NotificationService, [NotificationRepository, PushSender, Clock], (repo, push, clock) => new NotificationService(repo, push, clock));
  w.bind(
    Notifications.NotificationInboxService,
    [NotificationInbox, UserRepository, Notifications.NotificationService],
    (inbox, users, notifications) => new NotificationInboxService(inbox, users, notifications),
  );

  w.script([Notifications.NotificationInboxService, Platform.Presenters], notificationsScript);
});
