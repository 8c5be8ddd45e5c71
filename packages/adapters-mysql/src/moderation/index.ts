export type * from './schema.js';
export * from './migrations.js';
export * from './sql-report-repository.js';
export * from './sql-sanction-repository.js';
export * from './sql-moderation-log.js';
export * from './sql-candidacy-repository.js';
export * from './sql-moderator-roster.js';
export * from './sql-feature-suggestion-repository.js';
export * from './sql-moderation-account-data.js';
