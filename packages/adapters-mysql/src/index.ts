/**
 * The storage kernel: connections, dialect differences, the database type and the migration runner.
 * Each context's repositories, tables and migrations are their own entry point
 * (`@plaza/adapters-mysql/content`, …), so adding a context edits no shared index.
 */
export * from './connection.js';
export * from './dialect.js';
export * from './conflicts.js';
export * from './migrations/index.js';
export * from './migrations/helpers.js';
export * from './unit-of-work.js';
export type { Database } from './database.js';
export type { CounterContribution } from './counter-contributions.js';
