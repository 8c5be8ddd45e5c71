export * from './model.js';
export * from './ports.js';
export * from './relay-settings.js';
export * from './admin-roles.js';
export * from './admin-accounts.js';
