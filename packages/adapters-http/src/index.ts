/**
 * The HTTP framework: the app, the operation declarations and dispatcher, errors, logging, and
 * presenter context. Each script is its own entry point (`@plaza/adapters-http/scripts/posts`).
 */
export * from './app.js';
export * from './monitoring/index.js';
export * from './http/operation.js';
export * from './http/fields.js';
export * from './http/errors.js';
export { type ErrorCodeRow, errorCodesMarkdown, errorCodeTable, STATUS_OF_KIND, statusesOfCode } from './http/error-codes.js';
export { describe as describeSchema, fieldProblems, problemsMessage, type CheckedValue } from './http/field-messages.js';
export { trustedProxyProblem } from './http/client-info.js';
export * from './http/health.js';
export type { HttpMount } from './http/mount.js';
export { uploadsMount } from './http/uploads-mount.js';
export * from './http/logging.js';
export * from './http/time-format.js';
export type { PresenterContext } from './presenters/context.js';
export * from './http/openapi.js';
export * from './admin/panel.js';
export * from './admin/section.js';
export { registrationsSection } from './admin/registrations.js';
export * from './admin/users.js';
export * from './admin/reports.js';
export { federationSection } from './admin/federation.js';
export { jobsSection } from './admin/jobs.js';
