export * from './ports.js';
export * from './private-message-service.js';
export * from './message-group-service.js';
export * from './typing-service.js';
