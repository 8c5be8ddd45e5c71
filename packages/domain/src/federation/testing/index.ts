export * from './in-memory-federation.js';
export * from './federation.contract.js';
