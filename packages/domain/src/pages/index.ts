export * from './model.js';
export * from './ports.js';
export * from './rules.js';
export * from './page-service.js';
export * from './page-post-service.js';
export * from './page-comment-target.js';
export * from './page-surface-posts.js';
export * from './page-surface.js';
