export * from './content.contract.js';
export * from './in-memory-content.js';
