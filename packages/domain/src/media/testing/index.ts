export * from './in-memory-media.js';
export * from './in-memory-uploads.js';
export * from './media.contract.js';
export * from './uploads.contract.js';
