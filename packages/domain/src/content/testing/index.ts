export * from './content.contract.js';
export * from './in-memory-content.js';
export * from './in-memory-surface-engagement.js';
export * from './surface-engagement.contract.js';
export * from './surface-post-store.contract.js';
