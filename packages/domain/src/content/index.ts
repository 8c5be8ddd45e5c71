export * from './model.js';
export * from './ports.js';
export * from './post-service.js';
export * from './engagement-service.js';
export * from './comment-service.js';
export * from './story-service.js';
export * from './visibility.js';
