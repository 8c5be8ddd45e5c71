export * from './user.js';
export * from './ports.js';
export * from './auth-service.js';
export * from './profile-service.js';
