import type { AccountsTables } from './accounts.js';
import type { LimitsTables } from './limits.js';
import type { NotificationsTables } from './notifications.js';
import type { SocialTables } from './social.js';

/** Every table Plaza reads or writes; each feature declares its own in a file of this folder. */
export interface Database extends AccountsTables, LimitsTables, SocialTables, NotificationsTables {}

export type * from './accounts.js';
export type * from './limits.js';
export type * from './social.js';
export type * from './notifications.js';
