export * from './content.contract.js';
export * from './in-memory-content.js';
export * from './in-memory-home-timeline.js';
export * from './home-timeline.contract.js';
