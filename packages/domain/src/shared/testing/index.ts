export * from './snapshot.js';
export * from './in-memory-unit-of-work.js';
export * from './unit-of-work.contract.js';
export * from './job-runner.contract.js';
export * from './in-memory-outbox.js';
