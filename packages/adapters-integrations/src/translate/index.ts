export * from './libretranslate.js';
