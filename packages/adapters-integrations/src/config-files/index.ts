export * from './php-settings-file.js';
