export * from './fs-media.js';
