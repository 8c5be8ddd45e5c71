import { parseArgs } from 'node:util';
import { DomainError } from '@plaza/domain';
import { UserRepository } from '@plaza/domain/accounts';
import { createLogger } from '@plaza/adapters-http';
import { migrateToLatest, openDatabase } from '@plaza/adapters-mysql';
import { ConfigError, loadConfig } from '../config.js';
import { buildContainer, plazaMigrations } from '../container.js';
import { Accounts } from '../modules/accounts.module.js';
import { resolve } from '../wiring/feature-module.js';

/** What a command prints and the exit code it ends with; the bin files only relay them. */
export interface CommandResult {
  code: number;
  message: string;
}

const CREATE_USER_USAGE =
  'Usage: npm run create-user -- --username U --email E [--password P] [--admin]\n' +
  'Without --password, the password is read from standard input (one line) or, on a terminal, asked without echo.';

/** Where create-user gets the password when `--password` is absent (the bin passes stdin's reader). */
export interface CreateUserIo {
  readPassword?: () => Promise<string>;
}

function failure(error: unknown, prefix: string): CommandResult {
  if (error instanceof ConfigError) return { code: 2, message: error.message };
  if (error instanceof DomainError) return { code: 1, message: `${prefix}: ${error.message}` };
  return { code: 1, message: `${prefix}: ${(error as Error).message}` };
}

export async function migrateCommand(env: NodeJS.ProcessEnv): Promise<CommandResult> {
  try {
    const handle = openDatabase(loadConfig(env).database);
    try {
      const applied = await migrateToLatest(handle.db, handle.dialect, plazaMigrations());
      return { code: 0, message: applied.length ? `Applied: ${applied.join(', ')}` : 'Database already up to date' };
    } finally {
      await handle.close();
    }
  } catch (error) {
    return failure(error, 'Migration failed');
  }
}

export async function createUserCommand(argv: string[], env: NodeJS.ProcessEnv, io: CreateUserIo = {}): Promise<CommandResult> {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        username: { type: 'string' },
        email: { type: 'string' },
        password: { type: 'string' },
        admin: { type: 'boolean', default: false },
      },
    }));
  } catch (error) {
    return { code: 2, message: `${(error as Error).message}\n${CREATE_USER_USAGE}` };
  }
  if (!values.username || !values.email || (values.password === undefined && !io.readPassword))
    return { code: 2, message: CREATE_USER_USAGE };
  try {
    const password = values.password ?? (await io.readPassword!());
    const config = loadConfig(env);
    const handle = openDatabase(config.database);
    try {
      await migrateToLatest(handle.db, handle.dialect, plazaMigrations());
      const container = buildContainer(config, handle, createLogger({ level: 'warn' }));
      const user = await resolve(container, Accounts.AuthService).register({
        username: values.username,
        email: values.email,
        password,
      });
      if (values.admin) await resolve(container, UserRepository).setAdmin(user.id, true);
      return { code: 0, message: `Created user #${user.id} ${user.username}${values.admin ? ' (admin)' : ''}` };
    } finally {
      await handle.close();
    }
  } catch (error) {
    return failure(error, 'Cannot create user');
  }
}
