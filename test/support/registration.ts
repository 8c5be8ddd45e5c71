import { Accounts, resolve } from '@plaza/server';
import type { TestUser } from './mothers.js';
import type { TestServer } from './server.js';

/**
 * Accounts for the registration tests (docs/decisions/0104): names that never collide, and staff made
 * behind the operator's rules (AuthService.register, so no mode holds them) with a role set in the
 * database, signed in over HTTP.
 */
let seq = 0;
export const freshAccount = (prefix: string) => {
  seq += 1;
  const username = `${prefix}${seq}_${Math.random().toString(36).slice(2, 7)}`;
  return { username, email: `${username}@example.test`, password: 'correct horse battery' };
};

export async function aStaffMember(t: TestServer, role: 'is_admin' | 'is_moderator'): Promise<TestUser> {
  const who = freshAccount(role === 'is_admin' ? 'adm' : 'mod');
  const user = await resolve(t.plaza.container, Accounts.AuthService).register(who);
  await t.database.db
    .updateTable('users')
    .set({ [role]: 1 })
    .where('id', '=', user.id)
    .execute();
  const login = await t.api.post('auth.php', { username: who.username, password: who.password });
  if (typeof login.body?.token !== 'string') throw new Error(`aStaffMember: login answered ${login.status} ${JSON.stringify(login.body)}`);
  return { id: user.id, ...who, token: login.body.token };
}
