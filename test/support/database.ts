import { randomBytes } from 'node:crypto';
import { createConnection } from 'mysql2/promise';
import { afterAll, beforeAll, inject } from 'vitest';
import { type DatabaseHandle, migrateToLatest, mysqlConfigFromUrl, openDatabase } from '@plaza/adapters-mysql';
import { plazaMigrations } from '@plaza/server';

export const TEST_DIALECT = process.env.PLAZA_TEST_DB === 'mysql' ? 'mysql' : 'sqlite';

export interface TestDatabase extends DatabaseHandle {
  /** Closes the connection and drops the throw-away database. */
  drop(): Promise<void>;
}

/**
 * A fresh, migrated database for one test file: in-memory SQLite by default, or a new database on
 * the MySQL server under test, so files run in parallel without sharing rows.
 */
export async function openTestDatabase(): Promise<TestDatabase> {
  const database = await openEmptyTestDatabase();
  await migrateToLatest(database.db, database.dialect, plazaMigrations());
  return database;
}

/** A fresh database with no table yet, for the tests of migrations themselves. */
export async function openEmptyTestDatabase(): Promise<TestDatabase> {
  if (TEST_DIALECT === 'sqlite') {
    const handle = openDatabase({ kind: 'sqlite', file: ':memory:' });
    return { ...handle, drop: () => handle.close() };
  }
  const base = mysqlConfigFromUrl(inject('mysqlUrl')!);
  // The creation time in the name lets a cleanup drop only leftovers, never a database in use.
  const name = `plaza_t_${Math.floor(Date.now() / 1000)}_${process.pid}_${randomBytes(3).toString('hex')}`;
  const admin = await createConnection({ host: base.host, port: base.port, user: base.user, password: base.password });
  await admin.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
  await admin.end();
  const handle = openDatabase({ ...base, database: name, connectionLimit: 5 });
  return {
    ...handle,
    async drop() {
      await handle.close();
      const conn = await createConnection({ host: base.host, port: base.port, user: base.user, password: base.password });
      await conn.query(`DROP DATABASE IF EXISTS \`${name}\``);
      await conn.end();
    },
  };
}

/** Opens a fresh database before the file's tests and drops it after; call at the top of a test file. */
export function useTestDatabase(): () => TestDatabase {
  let database: TestDatabase | undefined;
  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(async () => {
    await database?.drop();
  });
  return () => {
    if (!database) throw new Error('the test database is opened in beforeAll: use it inside tests');
    return database;
  };
}
