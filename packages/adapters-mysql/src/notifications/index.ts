export type * from './schema.js';
export * from './sql-notification-inbox.js';
export * from './sql-notification-repository.js';
