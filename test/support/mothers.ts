import type { ApiClient } from './client.js';

export interface TestUser {
  id: number;
  username: string;
  email: string;
  password: string;
  token: string;
}

let seq = 0;

/** Registers a fresh account over HTTP and logs it in. */
export async function aUser(api: ApiClient, overrides: Partial<{ username: string; email: string; password: string }> = {}): Promise<TestUser> {
  seq += 1;
  const username = overrides.username ?? `u${seq}_${Math.random().toString(36).slice(2, 8)}`;
  const email = overrides.email ?? `${username}@example.test`;
  const password = overrides.password ?? 'correct horse battery';
  const reg = await api.post('auth.php?action=register', { username, email, password });
  if (reg.status !== 200) throw new Error(`register failed: ${reg.status} ${JSON.stringify(reg.body)}`);
  const login = await api.post('auth.php', { username, password });
  if (!login.body?.token) throw new Error(`login failed: ${JSON.stringify(login.body)}`);
  return { id: login.body.user_id, username, email, password, token: login.body.token };
}
