export * from './model.js';
export * from './ports.js';
export * from './call-push.js';
export * from './call-service.js';
export * from './talk-invite-service.js';
export * from './signal-cursor.js';
