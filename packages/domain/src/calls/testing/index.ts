export * from './in-memory-calls.js';
export * from './calls.contract.js';
