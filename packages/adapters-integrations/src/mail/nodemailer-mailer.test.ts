import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FileMailer } from './nodemailer-mailer.js';

describe('FileMailer', () => {
  it('writes each message as an .eml file and logs one line without the body', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'plaza-mail-'));
    const logged: object[] = [];
    const mailer = new FileMailer(join(dir, 'mail'), 'Plaza <no-reply@plaza.test>', { info: (obj) => logged.push(obj) });
    await mailer.send({ to: 'alice@example.test', subject: 'Reset', text: 'your code: SECRET-CODE' });
    const files = await readdir(join(dir, 'mail'));
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/\.eml$/);
    const eml = await readFile(join(dir, 'mail', files[0]), 'utf8');
    expect(eml).toContain('To: alice@example.test');
    expect(eml).toContain('Subject: Reset');
    expect(eml).toContain('SECRET-CODE');
    expect(logged).toHaveLength(1);
    expect(JSON.stringify(logged)).not.toContain('SECRET-CODE');
  });
});
