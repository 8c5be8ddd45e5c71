export type * from './schema.js';
export * from './sql-follow-repository.js';
export * from './sql-social-account-data.js';
export * from './sql-friend-request-repository.js';
