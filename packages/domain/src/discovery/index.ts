export * from './ports.js';
export * from './search-service.js';
export * from './suggestions.js';
