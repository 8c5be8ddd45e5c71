export * from './migrations.js';
export * from './sql-search-index.js';
export * from './suggestion-migrations.js';
export * from './sql-user-suggestions.js';
