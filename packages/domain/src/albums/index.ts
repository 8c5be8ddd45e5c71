export * from './model.js';
export * from './ports.js';
export * from './album-service.js';
