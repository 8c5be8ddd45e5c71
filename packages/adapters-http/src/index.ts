export * from './app.js';
export * from './http/operation.js';
export * from './http/fields.js';
export * from './http/errors.js';
export * from './http/logging.js';
export * from './http/time-format.js';
export * from './scripts/index.js';
export type { PublicSettingsSource } from './scripts/settings.js';
export type { FederationIdentity } from './presenters/user.js';
