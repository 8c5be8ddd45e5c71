import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Clock } from '@plaza/domain';
import { RecordingMailer } from '@plaza/domain/accounts/testing';
import { createPlaza, type Plaza } from '../../apps/server/src/library.js';
import { openTestDatabase, type TestDatabase } from './database.js';

export interface LibraryUnderTest {
  plaza: Plaza;
  database: TestDatabase;
}

/**
 * `createPlaza()` as an embedding tool opens it, on this run's test database (PLAZA_TEST_DB) and an
 * uploads directory of its own, with a recording mailer, the given clock and a cheap bcrypt cost.
 */
export async function openLibraryPlaza(name: string, clock: Clock): Promise<LibraryUnderTest> {
  const database = await openTestDatabase();
  const plaza = await createPlaza({
    env: { API_DATA_DIR: mkdtempSync(join(tmpdir(), `plaza-${name}-`)), BCRYPT_COST: '4' },
    database,
    mailer: new RecordingMailer(),
    clock,
  });
  return { plaza, database };
}

export async function closeLibraryPlaza({ plaza, database }: LibraryUnderTest): Promise<void> {
  await plaza.close();
  await database.drop();
}
