export * from './in-memory-groups.js';
export * from './groups.contract.js';
