export * from './errors.js';
export * from './clock.js';
export * from './time.js';
export * from './pagination.js';
export * from './actor.js';
