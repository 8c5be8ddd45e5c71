export * from './in-memory-reports.js';
export * from './in-memory-sanctions.js';
export * from './in-memory-suspensions.js';
export * from './in-memory-elections.js';
export * from './in-memory-suggestions.js';
export * from './moderation.contract.js';
