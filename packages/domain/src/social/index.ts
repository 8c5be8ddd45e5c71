export * from './ports.js';
export * from './follow-service.js';
export * from './follow-events.js';
export * from './friend-service.js';
export * from './friend-events.js';
export * from './outside-requests.js';
