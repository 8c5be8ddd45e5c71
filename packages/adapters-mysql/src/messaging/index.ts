export type * from './schema.js';
export * from './sql-message-group-repository.js';
export * from './sql-messaging-account-data.js';
export * from './sql-private-message-repository.js';
export * from './sql-typing-repository.js';
