export * from './connection.js';
export * from './redis-rate-limit-store.js';
export * from './redis-federation-key-values.js';
export * from './bull-job-runner.js';
export * from './redis-auth-invalidation.js';
