export type * from './schema.js';
export * from './migrations.js';
export * from './sql-album-repository.js';
export * from './sql-album-account-data.js';
