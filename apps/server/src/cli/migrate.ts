import { migrateToLatest, openDatabase } from '@plaza/adapters-mysql';
import { ConfigError, loadConfig } from '../config.js';

try {
  const config = loadConfig();
  const handle = openDatabase(config.database);
  const applied = await migrateToLatest(handle.db, handle.dialect);
  console.log(applied.length ? `Applied: ${applied.join(', ')}` : 'Database already up to date');
  await handle.close();
} catch (error) {
  console.error(error instanceof ConfigError ? error.message : `Migration failed: ${(error as Error).message}`);
  process.exit(1);
}
