export type * from './schema.js';
export * from './sql-rate-limit-store.js';
