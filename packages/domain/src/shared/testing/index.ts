export * from './snapshot.js';
export * from './in-memory-unit-of-work.js';
export * from './unit-of-work.contract.js';
