import { parseArgs } from 'node:util';
import { AuthService, DomainError, UserRepository } from '@plaza/domain';
import { createLogger } from '@plaza/adapters-http';
import { migrateToLatest, openDatabase } from '@plaza/adapters-mysql';
import { ConfigError, loadConfig } from '../config.js';
import { buildContainer } from '../container.js';
import { TYPES } from '../tokens.js';

const usage = 'Usage: npm run create-user -- --username U --email E --password P [--admin]';

try {
  const { values } = parseArgs({
    options: { username: { type: 'string' }, email: { type: 'string' }, password: { type: 'string' }, admin: { type: 'boolean', default: false } },
  });
  if (!values.username || !values.email || !values.password) throw new ConfigError(usage);
  const config = loadConfig();
  const handle = openDatabase(config.database);
  await migrateToLatest(handle.db, handle.dialect);
  const container = buildContainer(config, handle, createLogger({ level: 'warn' }));
  const user = await container.get<AuthService>(TYPES.AuthService).register({ username: values.username, email: values.email, password: values.password });
  if (values.admin) await container.get<UserRepository>(UserRepository).setAdmin(user.id, true);
  console.log(`Created user #${user.id} ${user.username}${values.admin ? ' (admin)' : ''}`);
  await handle.close();
} catch (error) {
  if (error instanceof ConfigError) console.error(error.message);
  else if (error instanceof DomainError) console.error(`Cannot create user: ${error.message}`);
  else console.error(`Cannot create user: ${(error as Error).message}`);
  process.exit(1);
}
