import { accountsModule } from './accounts.module.js';
import { adminModule } from './admin.module.js';
import { callsModule } from './calls.module.js';
import { livesModule } from './lives.module.js';
import { contentModule } from './content.module.js';
import { discoveryModule } from './discovery.module.js';
import { groupsModule } from './groups.module.js';
import { mediaModule } from './media.module.js';
import { messagingModule } from './messaging.module.js';
import { moderationModule } from './moderation.module.js';
import { notificationsModule } from './notifications.module.js';
import { pagesModule } from './pages.module.js';
import { eventsModule } from './events.module.js';
import { albumsModule } from './albums.module.js';
import { federationModule } from './federation.module.js';
import { platformModule } from './platform.module.js';
import { socialModule } from './social.module.js';
import { timelineModule } from './timeline.module.js';

/** Every bounded context Plaza serves. Adding a context is adding its module here, and nothing else. */
export const PLAZA_MODULES = [
  platformModule,
  accountsModule,
  notificationsModule,
  socialModule,
  messagingModule,
  contentModule,
  callsModule,
  livesModule,
  moderationModule,
  timelineModule,
  pagesModule,
  eventsModule,
  albumsModule,
  groupsModule,
  mediaModule,
  discoveryModule,
  adminModule,
  federationModule,
];
