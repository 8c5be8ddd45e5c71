import { Migrator, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import type { SqlDialect } from '../dialect.js';
import type { PlazaMigration } from './helpers.js';
import { accounts } from './0001_accounts.js';
import { socialGraph } from './0002_social_graph.js';
import { content } from './0003_content.js';
import { socialMessaging } from './0004_social_messaging.js';
import { threadCountIndex } from './0005_thread_count_index.js';

/**
 * Every migration in order. Never edit one that has been released: add a new one.
 * Names sort lexically, which is the order Kysely applies them in.
 */
const MIGRATIONS: Record<string, PlazaMigration> = {
  '0001_accounts': accounts,
  '0002_social_graph': socialGraph,
  '0003_content': content,
  '0004_social_messaging': socialMessaging,
  '0005_thread_count_index': threadCountIndex,
};

class StaticMigrationProvider implements MigrationProvider {
  constructor(private readonly dialect: SqlDialect) {}
  async getMigrations(): Promise<Record<string, Migration>> {
    const out: Record<string, Migration> = {};
    for (const [name, m] of Object.entries(MIGRATIONS)) {
      out[name] = {
        up: (db) => m.up(db, this.dialect),
        down: m.down ? (db) => m.down!(db, this.dialect) : undefined,
      };
    }
    return out;
  }
}

export async function migrateToLatest(db: Kysely<any>, dialect: SqlDialect): Promise<string[]> {
  const migrator = new Migrator({ db, provider: new StaticMigrationProvider(dialect) });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
