export type * from './schema.js';
export * from './sql-live-repository.js';
export * from './migrations.js';
export * from './sql-lives-account-data.js';
