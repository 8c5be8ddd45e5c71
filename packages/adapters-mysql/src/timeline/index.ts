export type * from './schema.js';
export * from './migrations.js';
export * from './sql-home-timeline-repository.js';
export * from './sql-timeline-account-data.js';
