export type * from './schema.js';
export * from './migrations.js';
export * from './sql-federation.js';
export * from './sql-federation-account-data.js';
export * from './sql-domain-blocks.js';
export * from './sql-remote-interactions.js';
export type * from './schema-follow-requests.js';
export * from './sql-follow-requests.js';
