export type * from './schema.js';
export * from './migrations.js';
export * from './sql-comment-repository.js';
export * from './sql-content-account-data.js';
export * from './sql-post-engagement-repository.js';
export * from './sql-post-repository.js';
export * from './sql-story-repository.js';
export * from './sql-surface-engagement-repository.js';
