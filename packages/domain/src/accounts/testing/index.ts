export * from './accounts.contract.js';
export * from './in-memory-accounts.js';
export * from './mothers.js';
export * from './profile-stats.contract.js';
export * from './in-memory-account-settings.js';
export * from './account-settings.contract.js';
export * from './in-memory-registration.js';
export * from './registration.contract.js';
