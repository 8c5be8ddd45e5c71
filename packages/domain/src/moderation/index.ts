export * from './rules.js';
export * from './model.js';
export * from './ports.js';
export * from './sanction-service.js';
export * from './report-service.js';
export * from './reportable-wall-posts.js';
export * from './election-service.js';
export * from './feature-suggestion-service.js';
