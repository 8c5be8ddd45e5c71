export * from './notification.js';
export * from './ports.js';
export * from './notification-service.js';
export * from './inbox.js';
export * from './preference-gated-push.js';
export * from './after-commit-push.js';
export * from './push-delivery.js';
export * from './social-notices.js';
