export type * from './schema.js';
export * from './migrations.js';
export * from './sql-page-repository.js';
export * from './sql-page-post-repository.js';
export * from './sql-page-account-data.js';
