export * from './logging-push-sender.js';
export * from './onesignal-push-provider.js';
export * from './ntfy-push-provider.js';
