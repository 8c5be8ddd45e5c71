export * from './in-memory-media.js';
export * from './media.contract.js';
