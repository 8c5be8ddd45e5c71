import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '@plaza/adapters-mysql';
import { SqlUserRepository } from '@plaza/adapters-mysql/accounts';
import { describe, expect, it } from 'vitest';
import { createUserCommand, migrateCommand } from './commands.js';

// The commands run against the embedded database, as on a fresh machine.
function freshEnv() {
  return { API_DATA_DIR: mkdtempSync(join(tmpdir(), 'plaza-cli-')), BCRYPT_COST: '4', LOG_LEVEL: 'silent' };
}

describe('CLI commands', () => {
  it('migrates once, then reports the database up to date', async () => {
    const env = freshEnv();
    const first = await migrateCommand(env);
    expect(first.code).toBe(0);
    expect(first.message).toMatch(/^Applied: 0001_accounts/);
    expect(await migrateCommand(env)).toEqual({ code: 0, message: 'Database already up to date' });
  });

  it('creates an admin who can then be found, and refuses a duplicate', async () => {
    const env = freshEnv();
    const made = await createUserCommand(
      ['--username', 'root_admin', '--email', 'root@example.test', '--password', 'long enough pw', '--admin'],
      env,
    );
    expect(made).toMatchObject({ code: 0, message: expect.stringContaining('root_admin (admin)') });
    const handle = openDatabase({ kind: 'sqlite', file: join(env.API_DATA_DIR, 'plaza.sqlite') });
    const user = await new SqlUserRepository(handle.db).findByLoginWithSecrets('root_admin');
    await handle.close();
    expect(user?.is_admin).toBe(true);
    expect(user?.password_hash.startsWith('$2y$')).toBe(true);
    const again = await createUserCommand(
      ['--username', 'root_admin', '--email', 'other@example.test', '--password', 'long enough pw'],
      env,
    );
    expect(again).toMatchObject({ code: 1, message: 'Cannot create user: This username is already taken' });
  });

  it('explains its usage and refuses bad input', async () => {
    const env = freshEnv();
    expect((await createUserCommand(['--username', 'x'], env)).code).toBe(2);
    expect((await createUserCommand(['--bogus'], env)).message).toContain('Usage:');
    expect(await createUserCommand(['--username', 'shorty', '--email', 's@example.test', '--password', 'short'], env)).toMatchObject({
      code: 1,
    });
    expect(await migrateCommand({ ...env, PORT: 'abc' })).toMatchObject({ code: 2, message: expect.stringContaining('PORT') });
  });
});
