export * from './fs-upload-files.js';
