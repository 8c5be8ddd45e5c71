export * from './in-memory-home-timeline.js';
export * from './home-timeline.contract.js';
