export type * from './schema.js';
export * from './sql-access-token-repository.js';
export * from './sql-password-reset-repository.js';
export * from './sql-profile-stats-reader.js';
export * from './sql-user-repository.js';
