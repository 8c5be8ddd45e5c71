export * from './in-memory-events.js';
export * from './events.contract.js';
