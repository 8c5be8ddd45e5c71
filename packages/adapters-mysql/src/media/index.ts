export type * from './schema.js';
export * from './migrations.js';
export * from './adopt-uploads.js';
export * from './sql-upload-registry.js';
