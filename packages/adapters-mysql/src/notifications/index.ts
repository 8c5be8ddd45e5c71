export type * from './schema.js';
export * from './sql-notification-inbox.js';
export * from './sql-notifications-account-data.js';
export * from './sql-notification-repository.js';
export type * from './push-schema.js';
export * from './sql-push-outbox.js';
export * from './migrations.js';
