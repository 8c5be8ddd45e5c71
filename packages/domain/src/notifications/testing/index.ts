export * from './in-memory-notifications.js';
export * from './notifications.contract.js';
export * from './in-memory-push-outbox.js';
export * from './push-outbox.contract.js';
