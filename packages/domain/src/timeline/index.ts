export * from './home-timeline.js';
