import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RecordingMailer } from '@plaza/domain/accounts/testing';
import { actorOf } from '@plaza/domain/accounts';
import { createPlaza } from '@plaza/server';
import { describe, expect, it } from 'vitest';
import { openTestDatabase } from '../../../test/support/database.js';
import { runExport } from './export-account.js';

describe('the export-account example', () => {
  it("writes an account's data to a JSON file through the library, with its posts and no secret, and says when there is no such account", async () => {
    const database = await openTestDatabase();
    const dir = mkdtempSync(join(tmpdir(), 'plaza-export-'));
    const options = { env: { API_DATA_DIR: dir, BCRYPT_COST: '4' }, database, mailer: new RecordingMailer() };
    try {
      const plaza = await createPlaza(options);
      const ada = await plaza.accounts.auth.register({ username: 'ada_export', email: 'ada@export.test', password: 'a long password' });
      await plaza.content.posts.create(actorOf(ada), { content: 'Notes on the engine', media: [], media_type: null, tags: [] });
      await plaza.close();

      const lines: string[] = [];
      const file = join(dir, 'ada.json');
      expect(await runExport(['ada@export.test', file], (l) => lines.push(l), options)).toBe(0);
      expect(lines).toEqual([expect.stringMatching(new RegExp(`^account #${ada.id} exported to .*ada\\.json \\(\\d+ bytes\\)$`))]);
      const text = readFileSync(file, 'utf8');
      const data = JSON.parse(text);
      expect(JSON.stringify(data)).toContain('Notes on the engine');
      expect(JSON.stringify(data)).toContain('ada_export');
      expect(text).not.toMatch(/password_hash|totp_secret|\$2[aby]\$/);

      expect(await runExport(['nobody', join(dir, 'x.json')], (l) => lines.push(l), options)).toBe(1);
      expect(lines.at(-1)).toBe('cannot export: no account nobody');
      expect(await runExport([], (l) => lines.push(l))).toBe(2);
      expect(lines.at(-1)).toMatch(/^Usage/);
    } finally {
      await database.drop();
    }
  }, 240_000); // createPlaza several times on MariaDB: each opens the container and checks the schema
});
