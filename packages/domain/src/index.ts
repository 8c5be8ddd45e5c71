export * from './shared/index.js';
export * from './accounts/index.js';
export * from './social/index.js';
export * from './messaging/index.js';
export * from './notifications/index.js';
export * from './limits/index.js';
export * from './content/index.js';
