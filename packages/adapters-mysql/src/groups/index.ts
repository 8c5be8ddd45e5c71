export type * from './schema.js';
export * from './migrations.js';
export * from './group-visibility.js';
export * from './sql-group-repositories.js';
export * from './sql-group-account-data.js';
