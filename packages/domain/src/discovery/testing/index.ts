export * from './in-memory-search.js';
export * from './search.contract.js';
export * from './in-memory-user-suggestions.js';
export * from './user-suggestions.contract.js';
