export type * from './schema.js';
export * from './migrations.js';
export * from './sql-event-repository.js';
export * from './sql-event-account-data.js';
