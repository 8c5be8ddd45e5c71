export * from './livekit-media-server.js';
export * from './php-config-file.js';
