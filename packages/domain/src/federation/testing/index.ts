export * from './in-memory-federation.js';
export * from './federation.contract.js';
export * from './in-memory-remote-interactions.js';
export * from './remote-interactions.contract.js';
export * from './in-memory-follow-requests.js';
export * from './follow-requests.contract.js';
export * from './in-memory-outbound-interactions.js';
export * from './outbound-interactions.contract.js';
