import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { RecordingMailer } from '@plaza/domain/accounts/testing';
import { describe, expect, it } from 'vitest';
import { openTestDatabase } from '../../../test/support/database.js';
import { runImport } from './cli.js';
import { parseCsv } from './csv.js';

describe('the import-users example', () => {
  it('reads quoted CSV fields with commas, quotes and line breaks', () => {
    expect(parseCsv('a,"b, c","say ""hi""\nthere"\r\nd,,e\n')).toEqual([
      ['a', 'b, c', 'say "hi"\nthere'],
      ['d', '', 'e'],
    ]);
  });

  it('imports a CSV through the library, invites password-less rows, reports refusals, and draws progress', async () => {
    const database = await openTestDatabase();
    const mailer = new RecordingMailer();
    const dir = mkdtempSync(join(tmpdir(), 'plaza-import-'));
    const file = join(dir, 'people.csv');
    writeFileSync(
      file,
      [
        'username,email,password,cause',
        'ada,ada@example.test,a long password,"Libraries, for all"',
        'grace,grace@example.test,,',
        'ada,other@example.test,another password,',
        'x!,bad@example.test,a long password,',
      ].join('\n'),
    );
    const lines: string[] = [];
    const progress = new PassThrough() as unknown as NodeJS.WriteStream;
    let drawn = '';
    (progress as unknown as PassThrough).on('data', (chunk) => (drawn += String(chunk)));
    try {
      const code = await runImport(
        [file],
        { out: (l) => lines.push(l), progress },
        { env: { API_DATA_DIR: dir, BCRYPT_COST: '4' }, database, mailer },
      );
      expect(code).toBe(1);
      expect(lines.at(-1)).toBe('2 created (1 invited to choose a password), 2 refused');
      expect(lines.filter((l) => l.startsWith('line 4 (ada)'))).toHaveLength(1);
      expect(lines.some((l) => l.startsWith('line 5 (x!)'))).toBe(true);

      const users = await database.db.selectFrom('users').select(['username', 'email', 'cause']).orderBy('id').execute();
      expect(users).toEqual([
        { username: 'ada', email: 'ada@example.test', cause: 'Libraries, for all' },
        { username: 'grace', email: 'grace@example.test', cause: null },
      ]);
      // Only the row without a password is invited to choose one. The invitation goes through the
      // mail outbox: queued with the account, then delivered (here right away, else by the server's job).
      const queued = await database.db.selectFrom('mail_outbox').select('recipient').execute();
      expect(queued.map((m) => m.recipient)).toEqual(['grace@example.test']);
      await expect.poll(() => mailer.sent.map((m) => m.to), { timeout: 10_000 }).toEqual(['grace@example.test']);
      expect(drawn).toContain('[##############################] 4/4  created 2  failed 2');
    } finally {
      await database.drop();
    }
  });

  it('prints its usage without a file', async () => {
    const lines: string[] = [];
    expect(await runImport([], { out: (l) => lines.push(l), progress: process.stderr })).toBe(2);
    expect(lines[0]).toMatch(/^Usage/);
  });
});
