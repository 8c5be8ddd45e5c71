import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { TEST_DIALECT, useTestDatabase } from '../support/database.js';

/**
 * What a MariaDB Galera cluster needs of the schema and the code (docs/decisions/0141): every table
 * has a primary key and is InnoDB (Galera replicates rows by their key, and only InnoDB's), and
 * nothing relies on what Galera does not replicate: LOCK TABLES, GET_LOCK/RELEASE_LOCK or XA
 * transactions.
 */

const root = join(import.meta.dirname, '..', '..');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    if (name === 'node_modules' || name === 'dist') return [];
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.(ts|mjs|js)$/.test(name) && !name.endsWith('.test.ts') ? [path] : [];
  });
}

describe('Galera-ready', () => {
  const database = useTestDatabase();

  it('every table of the migrated schema has a primary key (and on MariaDB is InnoDB; SQLite full-text index tables aside)', async () => {
    const db = database().db;
    if (TEST_DIALECT === 'mysql') {
      const tables = await sql<{ name: string; engine: string; keyed: number }>`
        select t.table_name as name, t.engine as engine,
               (select count(*) from information_schema.table_constraints c
                 where c.table_schema = t.table_schema and c.table_name = t.table_name
                   and c.constraint_type = 'PRIMARY KEY') as keyed
          from information_schema.tables t
         where t.table_schema = database() and t.table_type = 'BASE TABLE'`.execute(db);
      expect(tables.rows.length).toBeGreaterThan(50);
      expect(tables.rows.filter((t) => Number(t.keyed) !== 1).map((t) => t.name)).toEqual([]);
      expect(tables.rows.filter((t) => t.engine !== 'InnoDB').map((t) => `${t.name}: ${t.engine}`)).toEqual([]);
    } else {
      const tables = await sql<{ name: string }>`
        select name from sqlite_master
         where type = 'table' and name not like 'sqlite_%' and sql not like 'create virtual table%'`.execute(db);
      expect(tables.rows.length).toBeGreaterThan(50);
      const unkeyed: string[] = [];
      for (const { name } of tables.rows) {
        const columns = await sql<{ pk: number }>`select pk from pragma_table_info(${name})`.execute(db);
        if (!columns.rows.some((c) => Number(c.pk) > 0)) unkeyed.push(name);
      }
      expect(unkeyed).toEqual([]);
    }
    // information_schema on a server shared with many test databases is slow under load.
  }, 120_000);

  it('no source takes LOCK TABLES, GET_LOCK or XA transactions, which Galera does not replicate', () => {
    const forbidden = /\block\s+tables?\b|\bget_lock\s*\(|\brelease_lock\s*\(|\bxa\s+(start|begin|commit|end|prepare|rollback)\b/i;
    const offenders = ['packages', 'apps', 'scripts', 'bench']
      .flatMap((dir) => sources(join(root, dir)))
      .filter((file) => forbidden.test(readFileSync(file, 'utf8')))
      .map((file) => relative(root, file));
    expect(offenders).toEqual([]);
  });
});
