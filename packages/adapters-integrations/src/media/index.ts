export * from './fs-media.js';
export * from './ffmpeg-remuxer.js';
