import type { NewUser } from '../../accounts/user.js';

/**
 * Object mothers of the shared test kernel: the records every context's contract suites and tests start
 * from, written once here so that no context's `testing` folder imports another's for them.
 */

let counter = 0;

/** A valid new account; each call yields a distinct username and e-mail. */
export function aNewUser(overrides: Partial<NewUser> = {}): NewUser {
  counter += 1;
  const name = `user${counter}_${Math.random().toString(36).slice(2, 7)}`;
  return {
    username: name,
    email: `${name}@example.test`,
    password_hash: 'plain:password123',
    cause: null,
    is_admin: false,
    created_at: '2026-01-01 12:00:00',
    ...overrides,
  };
}
