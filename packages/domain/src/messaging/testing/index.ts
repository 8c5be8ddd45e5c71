export * from './in-memory-messaging.js';
export * from './in-memory-typing.js';
export * from './messaging.contract.js';
