export * from './in-memory-notifications.js';
export * from './notifications.contract.js';
