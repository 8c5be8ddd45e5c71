export * from './rate-limit.js';
export * from './in-memory-rate-limit-store.js';
