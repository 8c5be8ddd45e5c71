export type * from './schema.js';
export * from './migrations.js';
export * from './sql-admin-session-store.js';
export * from './sql-admin-roster.js';
