import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { InMemoryUserRepository } from '@plaza/domain/accounts/testing';
import type { MediaServerValues, TurnValues } from '@plaza/domain/admin';
import { adminContract, InMemoryAdminRoster, InMemoryAdminSessionStore, InMemorySettingsStore } from '@plaza/domain/admin/testing';
import { SqlUserRepository } from '@plaza/adapters-mysql/accounts';
import { SqlAdminRoster, SqlAdminSessionStore } from '@plaza/adapters-mysql/admin';
import { PhpMediaServerSettingsFile, PhpTurnSettingsFile } from '@plaza/adapters-integrations/config-files';
import { parsePhpConfigArray } from '@plaza/adapters-integrations/livekit';
import { TEST_DIALECT, useTestDatabase } from '../support/database.js';

const database = useTestDatabase();
const folders: string[] = [];
const freshFolder = () => {
  const dir = mkdtempSync(join(tmpdir(), 'plaza-admin-contract-'));
  folders.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of folders) rmSync(dir, { recursive: true, force: true });
});

adminContract('in-memory', async () => {
  const users = new InMemoryUserRepository();
  return {
    users,
    roster: new InMemoryAdminRoster(users),
    sessions: new InMemoryAdminSessionStore(),
    media: new InMemorySettingsStore<MediaServerValues>(),
    turn: new InMemorySettingsStore<TurnValues>(),
  };
});

adminContract(`sql (${TEST_DIALECT}) and PHP files`, async () => {
  const { db, dialect } = database();
  const dir = freshFolder();
  return {
    users: new SqlUserRepository(db),
    roster: new SqlAdminRoster(db, dialect),
    sessions: new SqlAdminSessionStore(db, dialect),
    media: new PhpMediaServerSettingsFile(join(dir, 'config', 'media_server.local.php')),
    turn: new PhpTurnSettingsFile(join(dir, 'config', 'turn.local.php')),
  };
});

describe('the PHP settings files', () => {
  it('are PHP return arrays, mode 0600, that the PHP-config reader reads back', async () => {
    const dir = freshFolder();
    const file = new PhpMediaServerSettingsFile(join(dir, 'media_server.local.php'));
    await file.write({ url: 'wss://m.example.org', api_key: 'APIkey', api_secret: "it's a \\ secret" });
    const source = readFileSync(file.path, 'utf8');
    expect(source).toMatch(/^<\?php\n/);
    expect(source).toContain("return [\n    'url' => 'wss://m.example.org',");
    expect(source).toContain("'api_secret' => 'it\\'s a \\\\ secret',");
    expect(statSync(file.path).mode & 0o777).toBe(0o600);
    expect(parsePhpConfigArray(source)).toEqual({ url: 'wss://m.example.org', api_key: 'APIkey', api_secret: "it's a \\ secret" });
  });
});
