export * from './mothers.js';
export * from './in-memory-accounts.js';
export * from './in-memory-social.js';
export * from './in-memory-notifications.js';
export * from './contracts/accounts.contract.js';
export * from './contracts/rate-limit-store.contract.js';
export * from './contracts/social.contract.js';
export * from './contracts/notifications.contract.js';
