export * from './content.contract.js';
export * from './in-memory-content.js';
export * from './surface-post-store.contract.js';
