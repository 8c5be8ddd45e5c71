export * from './in-memory-albums.js';
export * from './albums.contract.js';
