export * from './in-memory-admin.js';
export * from './admin.contract.js';
