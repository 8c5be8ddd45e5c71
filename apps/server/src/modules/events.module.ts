import { Clock, token, UnitOfWork } from '@plaza/domain';
import { UserRepository } from '@plaza/domain/accounts';
import { EventRepository, EventService } from '@plaza/domain/events';
import { eventsScript, newEventBody } from '@plaza/adapters-http/scripts/events';
import { EVENTS_MIGRATIONS, SqlEventAccountData, SqlEventRepository } from '@plaza/adapters-mysql/events';
import { featureModule, useCases } from '../wiring/feature-module.js';
import { ACTOR, arg, id, pageRequest } from '../library-input.js';
import { DatabaseToken } from '../wiring/tokens.js';
import { Notifications } from './notifications.module.js';
import { Media } from './media.module.js';
import { Platform } from './platform.module.js';

export const Events = {
  EventService: token<EventService>('events.EventService'),
};

/** What events offers outside the container (docs/decisions/0130): `createPlaza().events`. */
const face = {
  name: 'events',
  library: {
    events: useCases(Events.EventService, {
      upcoming: [ACTOR, pageRequest],
      details: [ACTOR, id('eventId')],
      create: [ACTOR, arg('input', newEventBody)],
      join: [ACTOR, id('eventId')],
      leave: [ACTOR, id('eventId')],
      delete: [ACTOR, id('eventId')],
      invite: [ACTOR, id('eventId'), id('userId')],
    }),
  },
  ports: {
    EventRepository: { suites: ['events/testing/events.contract.ts'], via: 'events' },
  },
} as const;

/** Events, their participants and invitations (docs/decisions/0037). */
export const eventsModule = featureModule(face, (w) => {
  w.migrations(EVENTS_MIGRATIONS);
  w.accountData([DatabaseToken], ({ db }) => new SqlEventAccountData(db));
  w.bind(EventRepository, [DatabaseToken], ({ db, dialect }) => new SqlEventRepository(db, dialect));
  w.construct(Events.EventService, EventService, [
    EventRepository,
    UserRepository,
    Notifications.NotificationService,
    Clock,
    UnitOfWork,
    Media.References,
  ]);
  w.script({ events: Events.EventService, presenters: Platform.Presenters }, ({ events, presenters }) => eventsScript(events, presenters));
});
