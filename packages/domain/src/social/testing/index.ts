export * from './in-memory-social.js';
export * from './social.contract.js';
