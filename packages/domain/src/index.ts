/**
 * The shared kernel: errors, clock, time, pagination, the acting user, tokens, rate limits.
 * Each bounded context is its own entry point (`@plaza/domain/content`, `@plaza/domain/social`, …),
 * with its fakes and contract suites under `@plaza/domain/<context>/testing`, so adding a context
 * edits no shared index.
 */
export * from './shared/index.js';
export * from './limits/index.js';
