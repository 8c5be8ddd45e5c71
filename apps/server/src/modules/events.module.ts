import { Clock, token, UnitOfWork } from '@plaza/domain';
import { UserRepository } from '@plaza/domain/accounts';
import { EventRepository, EventService } from '@plaza/domain/events';
import { eventsScript } from '@plaza/adapters-http/scripts/events';
import { EVENTS_MIGRATIONS, SqlEventAccountData, SqlEventRepository } from '@plaza/adapters-mysql/events';
import { featureModule } from '../wiring/feature-module.js';
import { DatabaseToken } from '../wiring/tokens.js';
import { Notifications } from './notifications.module.js';
import { Media } from './media.module.js';
import { Platform } from './platform.module.js';

export const Events = {
  EventService: token<EventService>('events.EventService'),
};

/** Events, their participants and invitations (docs/decisions/0037). */
export const eventsModule = featureModule((w) => {
  w.migrations(EVENTS_MIGRATIONS);
  w.accountData([DatabaseToken], ({ db }) => new SqlEventAccountData(db));
  w.bind(EventRepository, [DatabaseToken], ({ db, dialect }) => new SqlEventRepository(db, dialect));
  w.bind(
    Events.EventService,
    [EventRepository, UserRepository, Notifications.NotificationService, Clock, UnitOfWork, Media.References],
    (events, users, notifications, clock, uow, media) => new EventService(events, users, notifications, clock, uow, media),
  );
  w.script([Events.EventService, Platform.Presenters], eventsScript);
});
