export * from './in-memory-pages.js';
export * from './pages.contract.js';
