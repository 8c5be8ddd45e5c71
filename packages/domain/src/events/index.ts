export * from './model.js';
export * from './ports.js';
export * from './event-service.js';
