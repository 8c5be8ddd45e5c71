export * from './in-memory-lives.js';
export * from './lives.contract.js';
