export * from './home-timeline.js';
export * from './fan-out-lane.js';
