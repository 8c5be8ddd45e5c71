export * from './errors.js';
export * from './clock.js';
export * from './time.js';
export * from './pagination.js';
export * from './actor.js';
export * from './token.js';
export * from './unit-of-work.js';
export * from './reaction-rule.js';
