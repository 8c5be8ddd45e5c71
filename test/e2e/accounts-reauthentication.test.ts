import { ManualClock } from '@plaza/domain';
import { OtplibTotp } from '@plaza/adapters-integrations';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aUser, type TestUser } from '../support/mothers.js';
import { startTestServer, type TestServer } from '../support/server.js';

/**
 * Issue 27 item 2, docs/decisions/0112: turning two-factor off, new recovery codes and a new e-mail
 * address need the password (and a code) in the request, or a login of the last 10 minutes that
 * passed every factor of the account ("sudo mode"); five wrong proofs lock them for 15 minutes.
 */
let t: TestServer;
const clock = new ManualClock('2026-03-01T10:00:00Z');
const totp = new OtplibTotp();
beforeAll(async () => {
  t = await startTestServer({ clock });
});
afterAll(() => t.close());

const MINUTE = 60_000;
const login = (u: TestUser, code?: string) =>
  t.api.post('auth.php', { username: u.username, password: u.password, ...(code === undefined ? {} : { totp: code }) });
const status = async (u: TestUser) => (await t.api.get('two_factor.php', { token: u.token })).body;
const disable = (token: string, body?: Record<string, unknown>) => t.api.delete('two_factor.php', body, { token });

/** A user with two-factor on, logged in again with a recovery code: `token` is that login's. */
async function withTwoFactor(): Promise<TestUser & { secret: string; recovery: string[] }> {
  const u = await aUser(t.api);
  const { secret } = await status(u);
  const enabled = await t.api.post('two_factor.php?action=enable', { code: await totp.current(secret, clock.now()) }, { token: u.token });
  expect(enabled.status, JSON.stringify(enabled.body)).toBe(200);
  const recovery: string[] = enabled.body.recovery_codes;
  const again = await login(u, recovery.pop());
  expect(again.body.success, JSON.stringify(again.body)).toBe(true);
  return { ...u, token: again.body.token, secret, recovery };
}

async function expectStillOn(u: TestUser, codes: number): Promise<void> {
  expect(await status(u)).toEqual({ success: true, enabled: true, recovery_codes_remaining: codes });
}

describe('DELETE two_factor.php (contract §4: the app sends no body)', () => {
  it('works with a bare request right after a login that passed two-factor', async () => {
    const u = await withTwoFactor();
    clock.advance(9 * MINUTE);
    const off = await disable(u.token);
    expect(off.status, JSON.stringify(off.body)).toBe(200);
    expect(off.body).toMatchObject({ success: true, enabled: false });
    expect((await status(u)).enabled).toBe(false);
  });

  it('answers 403 reauthentication_required 10 minutes after the login, and two-factor stays on', async () => {
    const u = await withTwoFactor();
    clock.advance(10 * MINUTE + 1000);
    const refused = await disable(u.token);
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ success: false, code: 'reauthentication_required' });
    expect(refused.body.message).toMatch(/log in again/i);
    await expectStillOn(u, 9);
  });

  it('refuses a token of a login from before two-factor was on, however recent', async () => {
    const u = await aUser(t.api);
    const { secret } = await status(u);
    expect(
      (await t.api.post('two_factor.php?action=enable', { code: await totp.current(secret, clock.now()) }, { token: u.token })).status,
    ).toBe(200);
    const refused = await disable(u.token);
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('reauthentication_required');
    await expectStillOn(u, 10);
  });

  it('does not extend sudo mode by refreshing the token', async () => {
    const u = await withTwoFactor();
    clock.advance(6 * MINUTE);
    const refreshed = await t.api.post('auth.php?action=refresh', {}, { token: u.token });
    expect(refreshed.status).toBe(200);
    clock.advance(5 * MINUTE);
    const refused = await disable(refreshed.body.token);
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('reauthentication_required');
    await expectStillOn({ ...u, token: refreshed.body.token }, 9);
  });

  it('works later with the password and a current code, or a recovery code; mails the owner', async () => {
    const u = await withTwoFactor();
    clock.advance(30 * MINUTE);
    const before = t.mailer.sent.length;
    const off = await disable(u.token, { password: u.password, code: await totp.current(u.secret, clock.now()) });
    expect(off.status, JSON.stringify(off.body)).toBe(200);
    expect((await status(u)).enabled).toBe(false);
    await t.mailSettled();
    expect(t.mailer.sent.slice(before).some((m) => m.to === u.email && /two-factor/.test(m.subject))).toBe(true);

    const v = await withTwoFactor();
    clock.advance(30 * MINUTE);
    expect((await disable(v.token, { password: v.password, code: v.recovery[0] })).status).toBe(200);
    expect((await status(v)).enabled).toBe(false);
  });

  it('refuses a missing code, a wrong code or a wrong password, changing nothing', async () => {
    const u = await withTwoFactor();
    clock.advance(30 * MINUTE);
    const noCode = await disable(u.token, { password: u.password });
    expect(noCode.status).toBe(400);
    expect(noCode.body.code).toBe('two_factor_code_required');
    const wrongCode = await disable(u.token, { password: u.password, code: '000000' });
    expect(wrongCode.status).toBe(403);
    expect(wrongCode.body.code).toBe('invalid_totp_code');
    // The code was not used up by the refusal of the wrong password.
    const wrongPassword = await disable(u.token, { password: 'not the password', code: u.recovery[0] });
    expect(wrongPassword.status).toBe(403);
    expect(wrongPassword.body.code).toBe('wrong_password');
    for (const body of [{ password: 42 }, { code: ['123456'] }, { password: 'x'.repeat(201) }]) {
      expect((await disable(u.token, body)).status, JSON.stringify(body)).toBe(400);
    }
    await expectStillOn(u, 9);
    expect((await login(u, u.recovery[0])).body.success).toBe(true);
  });

  it('locks for 15 minutes after five wrong passwords: even the right one, even sudo mode', async () => {
    const u = await withTwoFactor();
    for (let i = 0; i < 5; i += 1) {
      const wrong = await disable(u.token, { password: `wrong ${i}`, code: u.recovery[0] });
      expect(wrong.status).toBe(403);
      expect(wrong.body.code).toBe('wrong_password');
    }
    const locked = await disable(u.token, { password: u.password, code: u.recovery[0] });
    expect(locked.status).toBe(429);
    expect(locked.body.code).toBe('reauthentication_locked');
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(14 * 60);
    // A fresh login that passed two-factor is locked out as well: the lock is the account's.
    const fresh = await login(u, u.recovery[1]);
    expect((await disable(fresh.body.token)).status).toBe(429);
    await expectStillOn(u, 8);

    clock.advance(15 * MINUTE + 1000);
    const off = await disable(u.token, { password: u.password, code: u.recovery[0] });
    expect(off.status, JSON.stringify(off.body)).toBe(200);
  });

  it('counts 20 wrong attempts at once exactly: five are checked, fifteen refused as locked', async () => {
    const u = await withTwoFactor();
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => disable(u.token, { password: `wrong ${i}`, code: u.recovery[0] })),
    );
    expect(answers.filter((a) => a.status === 403 && a.body.code === 'wrong_password')).toHaveLength(5);
    expect(answers.filter((a) => a.status === 429 && a.body.code === 'reauthentication_locked')).toHaveLength(15);
    expect((await disable(u.token, { password: u.password, code: u.recovery[0] })).status).toBe(429);
    await expectStillOn(u, 9);
    const rows = await t.database.db.selectFrom('reauthentication_attempts').select('attempts').where('user_id', '=', u.id).execute();
    expect(rows).toEqual([{ attempts: 5 }]);
  });
});

describe('POST two_factor.php?action=regenerate_recovery_codes', () => {
  it('gives ten new codes right after a two-factor login; the old ones stop working', async () => {
    const u = await withTwoFactor();
    const res = await t.api.post('two_factor.php?action=regenerate_recovery_codes', {}, { token: u.token });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.recovery_codes).toHaveLength(10);
    await expectStillOn(u, 10);
    expect((await login(u, u.recovery[0])).body.two_factor_required).toBe(true);
    expect((await login(u, res.body.recovery_codes[0])).body.success).toBe(true);
  });

  it('needs the password 10 minutes later, and refuses while two-factor is off', async () => {
    const u = await withTwoFactor();
    clock.advance(11 * MINUTE);
    const refused = await t.api.post('two_factor.php?action=regenerate_recovery_codes', {}, { token: u.token });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('reauthentication_required');
    const wrong = await t.api.post('two_factor.php?action=regenerate_recovery_codes', { password: 'wrong password' }, { token: u.token });
    expect(wrong.body.code).toBe('wrong_password');
    await expectStillOn(u, 9);
    expect((await login(u, u.recovery[0])).body.success).toBe(true);
    const ok = await t.api.post('two_factor.php?action=regenerate_recovery_codes', { password: u.password }, { token: u.token });
    expect(ok.status).toBe(200);

    const off = await aUser(t.api);
    const none = await t.api.post('two_factor.php?action=regenerate_recovery_codes', { password: off.password }, { token: off.token });
    expect(none.status).toBe(409);
    expect(none.body.code).toBe('two_factor_not_enabled');
  });
});

describe('PUT users.php with email', () => {
  const update = (u: TestUser, body: Record<string, unknown>) => t.api.put('users.php', body, { token: u.token });
  const own = async (u: TestUser) => (await t.api.get('users.php', { token: u.token })).body;

  it('changes the address right after a password login (no two-factor), else needs the password', async () => {
    const u = await aUser(t.api);
    const first = await update(u, { email: `First.${u.username}@example.test` });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.email).toBe(`first.${u.username}@example.test`);

    clock.advance(10 * MINUTE + 1000);
    const refused = await update(u, { email: `second.${u.username}@example.test`, bio: 'not written either' });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('reauthentication_required');
    expect(await own(u)).toMatchObject({ email: `first.${u.username}@example.test`, bio: '' });

    const ok = await update(u, { email: `second.${u.username}@example.test`, password: u.password, bio: 'written' });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body).toMatchObject({ email: `second.${u.username}@example.test`, bio: 'written' });
    // The login by the new address works; the same address again needs no proof.
    expect((await t.api.post('auth.php', { username: `second.${u.username}@example.test`, password: u.password })).body.success).toBe(true);
    expect((await update(u, { email: `SECOND.${u.username}@example.test`, bio: 'again' })).status).toBe(200);
  });

  it('asks an account with two-factor for a login that passed it', async () => {
    const u = await aUser(t.api);
    const { secret } = await status(u);
    expect(
      (await t.api.post('two_factor.php?action=enable', { code: await totp.current(secret, clock.now()) }, { token: u.token })).status,
    ).toBe(200);
    expect((await update(u, { email: `x.${u.username}@example.test` })).body.code).toBe('reauthentication_required');
    expect((await update(u, { email: `x.${u.username}@example.test`, password: u.password })).status).toBe(200);
  });

  it('refuses an invalid or taken address and locks after five wrong passwords, changing nothing', async () => {
    const u = await aUser(t.api);
    const other = await aUser(t.api);
    for (const email of ['not an address', 'a@b', 'x@deleted.invalid', 42, `${'a'.repeat(190)}@example.test`]) {
      const bad = await update(u, { email, password: u.password });
      expect(bad.status, JSON.stringify(email)).toBe(400);
    }
    const taken = await update(u, { email: other.email.toUpperCase(), password: u.password });
    expect(taken.status).toBe(409);
    expect(taken.body.code).toBe('email_taken');

    clock.advance(11 * MINUTE);
    for (let i = 0; i < 5; i += 1)
      expect((await update(u, { email: `new.${u.username}@example.test`, password: `wrong ${i}` })).body.code).toBe('wrong_password');
    const locked = await update(u, { email: `new.${u.username}@example.test`, password: u.password });
    expect(locked.status).toBe(429);
    expect(locked.body.code).toBe('reauthentication_locked');
    expect((await own(u)).email).toBe(u.email);
    // Other fields stay editable: only what removes a protection is locked.
    expect((await update(u, { bio: 'still mine' })).status).toBe(200);
    clock.advance(15 * MINUTE + 1000);
    expect((await update(u, { email: `new.${u.username}@example.test`, password: u.password })).status).toBe(200);
  });
});
