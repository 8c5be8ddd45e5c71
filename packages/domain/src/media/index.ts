export * from './reference.js';
export * from './ports.js';
export * from './references.js';
export * from './upload.js';
export * from './uploads.js';
export * from './upload-collection.js';
export * from './translation.js';
