import { Migrator, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import type { SqlDialect } from '../dialect.js';
import type { PlazaMigration } from './helpers.js';
import { accounts } from './0001_accounts.js';
import { socialGraph } from './0002_social_graph.js';
import { content } from './0003_content.js';
import { socialMessaging } from './0004_social_messaging.js';
import { threadCountIndex } from './0005_thread_count_index.js';

/** Migrations by name. Names sort lexically, which is the order Kysely applies them in. */
export type PlazaMigrations = Record<string, PlazaMigration>;

/**
 * The tables of the first five contexts, released together before contexts owned their migrations:
 * these files span contexts and, being released, are never edited. Every later context ships its
 * migrations in its own folder and its feature module contributes them (see `collectMigrations`).
 */
export const BASELINE_MIGRATIONS: PlazaMigrations = {
  '0001_accounts': accounts,
  '0002_social_graph': socialGraph,
  '0003_content': content,
  '0004_social_messaging': socialMessaging,
  '0005_thread_count_index': threadCountIndex,
};

/** Merges the migrations contributed by every module; one name claimed twice is a wiring mistake. */
export function collectMigrations(sets: PlazaMigrations[]): PlazaMigrations {
  const all: PlazaMigrations = {};
  for (const set of sets) {
    for (const [name, migration] of Object.entries(set)) {
      if (all[name]) throw new Error(`Two modules declare the migration ${name}`);
      all[name] = migration;
    }
  }
  return all;
}

class StaticMigrationProvider implements MigrationProvider {
  constructor(
    private readonly migrations: PlazaMigrations,
    private readonly dialect: SqlDialect,
  ) {}
  async getMigrations(): Promise<Record<string, Migration>> {
    const out: Record<string, Migration> = {};
    for (const [name, m] of Object.entries(this.migrations)) {
      out[name] = {
        up: (db) => m.up(db, this.dialect),
        down: m.down ? (db) => m.down!(db, this.dialect) : undefined,
      };
    }
    return out;
  }
}

/**
 * Runs every migration not run yet, in name order. Each feature module brings its own migrations, so a
 * context added in a later release may sort before one already applied (`20261122_albums_…` after
 * `20261122_notifications_…` ran): it runs all the same (`allowUnorderedMigrations`), where Kysely would
 * otherwise refuse the database as corrupted. A module's own migrations still run in its name order.
 */
export async function migrateToLatest(db: Kysely<any>, dialect: SqlDialect, migrations: PlazaMigrations): Promise<string[]> {
  const migrator = new Migrator({ db, provider: new StaticMigrationProvider(migrations, dialect), allowUnorderedMigrations: true });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
