export * from './model.js';
export * from './ports.js';
export * from './visibility.js';
export * from './group-service.js';
export * from './group-post-service.js';
export * from './group-surface-posts.js';
export * from './group-surface.js';
