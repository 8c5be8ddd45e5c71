export type * from './schema.js';
export * from './sql-call-repository.js';
export * from './migrations.js';
export * from './sql-calls-account-data.js';
