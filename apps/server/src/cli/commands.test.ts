import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '@plaza/adapters-mysql';
import { SqlUserRepository } from '@plaza/adapters-mysql/accounts';
import { BcryptPasswordHasher } from '@plaza/adapters-integrations';
import { describe, expect, it } from 'vitest';
import { PassThrough } from 'node:stream';
import { createUserCommand, migrateCommand } from './commands.js';
import { type PasswordSource, readPassword } from './password-input.js';

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

  it('reads the password from piped standard input when --password is absent: one line, its line ending dropped', async () => {
    const env = freshEnv();
    const stdin = new PassThrough();
    stdin.end('piped long password\r\nthe next line is not read\n');
    const made = await createUserCommand(['--username', 'piped_admin', '--email', 'piped@example.test', '--admin'], env, {
      readPassword: () => readPassword(stdin, new PassThrough()),
    });
    expect(made).toMatchObject({ code: 0, message: expect.stringContaining('piped_admin (admin)') });
    const handle = openDatabase({ kind: 'sqlite', file: join(env.API_DATA_DIR, 'plaza.sqlite') });
    try {
      const users = new SqlUserRepository(handle.db);
      const user = await users.findWithSecrets((await users.findByLogin('piped_admin'))!.id);
      const hasher = new BcryptPasswordHasher(4);
      expect(await hasher.verify('piped long password', user!.password_hash)).toBe(true);
      expect(await hasher.verify('piped long password\r', user!.password_hash)).toBe(false);
    } finally {
      await handle.close();
    }
    // Nothing piped: refused, no account; without a reader (and no --password) it is a usage error.
    const empty = new PassThrough();
    empty.end();
    const none = await createUserCommand(['--username', 'nobody', '--email', 'nobody@example.test'], env, {
      readPassword: () => readPassword(empty, new PassThrough()),
    });
    expect(none).toMatchObject({ code: 1, message: expect.stringContaining('no password on standard input') });
    expect((await createUserCommand(['--username', 'nobody', '--email', 'nobody@example.test'], env)).code).toBe(2);
  });

  it('asks on a terminal without echoing what is typed, twice, and refuses two different answers', async () => {
    const terminal = (keys: string[]) => {
      const input = Object.assign(new PassThrough(), { isTTY: true, raw: [] as boolean[] }) as PassThrough &
        PasswordSource & { raw: boolean[] };
      input.setRawMode = (raw: boolean) => input.raw.push(raw);
      // Each answer arrives once the prompt for it was written (a person types after reading it).
      let shown = '';
      const output = new PassThrough();
      output.on('data', (chunk) => {
        shown += String(chunk);
        if (/: $/.test(shown) && keys.length) input.write(keys.shift()!);
      });
      return { input, output, shown: () => shown };
    };
    const ok = terminal(['secret passx\u007fword\r', 'secret password\r']);
    expect(await readPassword(ok.input, ok.output)).toBe('secret password');
    expect(ok.shown()).toBe('Password (not shown): \nAgain: \n');
    expect(ok.input.raw).toEqual([true, false, true, false]);
    const typo = terminal(['one long password\r', 'another long password\r']);
    await expect(readPassword(typo.input, typo.output)).rejects.toThrow('the two passwords differ');
  });
});
