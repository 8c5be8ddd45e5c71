import type { AccountsTables } from './accounts.js';
import type { ContentTables } from './content.js';
import type { LimitsTables } from './limits.js';
import type { MessagingTables } from './messaging.js';
import type { NotificationsTables } from './notifications.js';
import type { SocialTables } from './social.js';

/** Every table Plaza reads or writes; each feature declares its own in a file of this folder. */
export interface Database extends AccountsTables, LimitsTables, SocialTables, NotificationsTables, ContentTables, MessagingTables {}

export type * from './accounts.js';
export type * from './content.js';
export type * from './limits.js';
export type * from './messaging.js';
export type * from './social.js';
export type * from './notifications.js';
