export * from './queue-depths.js';
