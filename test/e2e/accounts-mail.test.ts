import { ManualClock } from '@plaza/domain';
import { OtplibTotp } from '@plaza/adapters-integrations';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LoopbackSmtp } from '../support/loopback-smtp.js';
import { aUser } from '../support/mothers.js';
import { startTestServer, type TestServer } from '../support/server.js';

/** The real SMTP adapter against an SMTP server on the loopback, with the outbox and its job. */
let t: TestServer;
let smtp: LoopbackSmtp;
const clock = new ManualClock('2026-04-01T08:00:00Z');
beforeAll(async () => {
  smtp = await new LoopbackSmtp().start();
  t = await startTestServer({ clock, realMail: true, env: { SMTP_URL: smtp.url, MAIL_FROM: 'Plaza <no-reply@plaza.test>' } });
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

function codeIn(text: string): string {
  return text
    .split(/\r?\n/)
    .find((l) => /^[A-Za-z0-9_-]{40,}$/.test(l.trim()))!
    .trim();
}

describe('mail over SMTP', () => {
  it('delivers the password reset as text and HTML, and its code works once', async () => {
    const u = await aUser(t.api);
    expect((await t.api.post('auth.php?action=forgot_password', { email: u.email })).status).toBe(200);
    const mail = await smtp.mailTo(u.email);
    expect(mail.raw).toMatch(/^From: Plaza <no-reply@plaza\.test>/m);
    expect(mail.raw).toMatch(/Content-Type: multipart\/alternative/);
    expect(mail.subject).toMatch(/password reset/);
    const code = codeIn(mail.text);
    expect(mail.html).toContain(code);
    expect(mail.html).toMatch(/^<!doctype html>/);
    const ok = await t.api.post('auth.php?action=reset_password', { token: code, password: 'a fresh password' });
    expect(ok.status).toBe(200);
    const again = await t.api.post('auth.php?action=reset_password', { token: code, password: 'another password' });
    expect(again.body.code).toBe('invalid_reset_token');
    expect((await t.api.post('auth.php', { username: u.username, password: 'a fresh password' })).body.success).toBe(true);
  });

  it('delivers the account-deletion link and the two-factor notice as text and HTML', async () => {
    const u = await aUser(t.api);
    expect((await t.api.post('delete_account.php', { password: u.password }, { token: u.token })).status).toBe(200);
    const deletion = await smtp.mailTo(u.email);
    expect(deletion.subject).toMatch(/deletion/);
    const link = /(http:\/\/plaza\.test\/api\/v1\/delete_account\.php\?token=\S+)/.exec(deletion.text)?.[1];
    expect(link).toBeDefined();
    expect(deletion.html).toContain(`href="${link}"`);

    const v = await aUser(t.api);
    const status = await t.api.get('two_factor.php', { token: v.token });
    const code = await new OtplibTotp().current(status.body.secret, clock.now());
    const enabled = await t.api.post('two_factor.php?action=enable', { code }, { token: v.token });
    expect(enabled.status).toBe(200);
    // v.token's login predates two-factor: the password and a code prove it is v (docs/decisions/0112).
    expect(
      (await t.api.delete('two_factor.php', { password: v.password, code: enabled.body.recovery_codes[0] }, { token: v.token })).status,
    ).toBe(200);
    const notice = await smtp.mailTo(v.email);
    expect(notice.subject).toMatch(/two-factor authentication turned off/);
    expect(notice.text).toMatch(/turned off/);
    expect(notice.html).toMatch(/<p>.*turned off/);
  });

  it('keeps the request when the SMTP server refuses, and the job delivers the mail later', async () => {
    const u = await aUser(t.api);
    smtp.refusing = true;
    const res = await t.api.post('auth.php?action=forgot_password', { email: u.email });
    expect(res.status).toBe(200);
    await t.mailSettled();
    const row = await t.database.db.selectFrom('mail_outbox').selectAll().where('recipient', '=', u.email).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'pending', attempts: 1 });
    expect(row.last_error).toMatch(/421|not available/);
    expect(smtp.received.some((m) => m.to.includes(u.email))).toBe(false);
    // Still refused, and not due yet: the job leaves it.
    await t.runJob('deliver-mail');
    expect(
      (await t.database.db.selectFrom('mail_outbox').select('attempts').where('id', '=', row.id).executeTakeFirstOrThrow()).attempts,
    ).toBe(1);
    smtp.refusing = false;
    clock.advance(61_000);
    await t.runJob('deliver-mail');
    const mail = await smtp.mailTo(u.email);
    expect(mail.subject).toMatch(/password reset/);
    const sent = await t.database.db
      .selectFrom('mail_outbox')
      .select(['status', 'attempts'])
      .where('id', '=', row.id)
      .executeTakeFirstOrThrow();
    expect(sent).toEqual({ status: 'sent', attempts: 1 });
    // The reset made while the server refused works.
    const ok = await t.api.post('auth.php?action=reset_password', { token: codeIn(mail.text), password: 'a fresh password' });
    expect(ok.status).toBe(200);
  });
});
