export * from './model.js';
export * from './ports.js';
export * from './rules.js';
export * from './federation-service.js';
export * from './domain-blocks.js';
export * from './federation-admin.js';
export * from './mentions.js';
