import { ManualClock } from '@plaza/domain';
import { UserRepository } from '@plaza/domain/accounts';
import { OtplibTotp } from '@plaza/adapters-integrations';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aUser, type TestUser } from '../support/mothers.js';
import { startTestServer, type TestServer } from '../support/server.js';

let t: TestServer;
const clock = new ManualClock('2026-03-01T10:00:00Z');
const totp = new OtplibTotp();
beforeAll(async () => {
  t = await startTestServer({ clock });
});
afterAll(() => t.close());

const login = (u: TestUser, code?: string) =>
  t.api.post('auth.php', { username: u.username, password: u.password, ...(code === undefined ? {} : { totp: code }) });

async function enabled(u: TestUser): Promise<{ secret: string; recovery: string[] }> {
  const status = await t.api.get('two_factor.php', { token: u.token });
  const code = await totp.current(status.body.secret, clock.now());
  const res = await t.api.post('two_factor.php?action=enable', { code }, { token: u.token });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { secret: status.body.secret, recovery: res.body.recovery_codes };
}

describe('two_factor.php', () => {
  it('shows a stable set-up secret while off, as contract §4 types it', async () => {
    const u = await aUser(t.api);
    const first = await t.api.get('two_factor.php', { token: u.token });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ success: true, enabled: false, recovery_codes_remaining: 0 });
    expect(first.body.secret).toMatch(/^[A-Z2-7]{16,}$/);
    expect(first.body.otpauth_url).toMatch(new RegExp(`^otpauth://totp/.*${u.username}.*secret=${first.body.secret}`));
    expect((await t.api.get('two_factor.php', { token: u.token })).body.secret).toBe(first.body.secret);
  });

  it('refuses a wrong or malformed code with a 400 that changes nothing', async () => {
    const u = await aUser(t.api);
    await t.api.get('two_factor.php', { token: u.token });
    const wrong = await t.api.post('two_factor.php?action=enable', { code: '000000' }, { token: u.token });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toMatchObject({ success: false, code: 'invalid_totp_code' });
    for (const body of [{}, { code: 'abc' }, { code: '1234567' }, { code: ['123456'] }]) {
      const bad = await t.api.post('two_factor.php?action=enable', body, { token: u.token });
      expect(bad.status, JSON.stringify(body)).toBe(400);
    }
    expect((await t.api.get('two_factor.php', { token: u.token })).body.enabled).toBe(false);
    expect((await login(u)).body.token).toEqual(expect.any(String));
  });

  it('enable → login asks → wrong code asks again → right code → same code refused → recovery code once → disable', async () => {
    const u = await aUser(t.api);
    const { secret, recovery } = await enabled(u);
    expect(recovery).toHaveLength(10);
    expect((await t.api.get('two_factor.php', { token: u.token })).body).toEqual({
      success: true,
      enabled: true,
      recovery_codes_remaining: 10,
    });

    expect((await login(u)).body).toMatchObject({ success: false, two_factor_required: true });
    expect((await login(u, '000000')).body).toMatchObject({ success: false, two_factor_required: true });
    // The code that enabled it is used up; the next step's code works once.
    clock.advance(30_000);
    const code = await totp.current(secret, clock.now());
    const ok = await login(u, code);
    expect(ok.body).toMatchObject({ success: true, token: expect.any(String) });
    expect((await login(u, code)).body).toMatchObject({ success: false, two_factor_required: true });

    const byRecovery = await login(u, recovery[0].toUpperCase());
    expect(byRecovery.body).toMatchObject({ success: true, token: expect.any(String) });
    expect((await login(u, recovery[0])).body).toMatchObject({ success: false, two_factor_required: true });
    expect((await t.api.get('two_factor.php', { token: u.token })).body.recovery_codes_remaining).toBe(9);

    const before = t.mailer.sent.length;
    // Turned off with the bare request of the app (contract §4) by a session whose login passed
    // two-factor moments ago (docs/decisions/0112); u.token's login predates two-factor.
    const off = await t.api.delete('two_factor.php', undefined, { token: byRecovery.body.token });
    expect(off.status).toBe(200);
    expect(off.body).toMatchObject({ success: true, enabled: false });
    await t.mailSettled();
    const mail = t.mailer.sent.slice(before).find((m) => m.to === u.email);
    expect(mail?.subject).toMatch(/two-factor/);
    expect(mail?.html).toContain('<p>');
    expect((await login(u)).body).toMatchObject({ success: true, token: expect.any(String) });
  });

  it('accepts one step of clock drift either way, not two', async () => {
    const u = await aUser(t.api);
    const { secret } = await enabled(u);
    clock.advance(5 * 60_000);
    expect((await login(u, await totp.current(secret, new Date(clock.now().getTime() - 30_000)))).body.success).toBe(true);
    clock.advance(5 * 60_000);
    expect((await login(u, await totp.current(secret, new Date(clock.now().getTime() + 30_000)))).body.success).toBe(true);
    clock.advance(5 * 60_000);
    expect((await login(u, await totp.current(secret, new Date(clock.now().getTime() - 90_000)))).body.two_factor_required).toBe(true);
  });

  it('accepts the 10-byte secrets of PHP applications', async () => {
    const u = await aUser(t.api);
    const secret = 'JBSWY3DPEHPK3PXP'; // 10 bytes
    await t.plaza.container.get<UserRepository>(UserRepository).setTwoFactor(u.id, secret, true);
    clock.advance(60_000);
    expect((await login(u, await totp.current(secret, clock.now()))).body.success).toBe(true);
  });

  it('lets one of 20 identical logins with the same code through', async () => {
    const u = await aUser(t.api);
    const { secret } = await enabled(u);
    clock.advance(30_000);
    const code = await totp.current(secret, clock.now());
    const answers = await Promise.all(Array.from({ length: 20 }, () => login(u, code)));
    expect(answers.filter((a) => a.body.success === true)).toHaveLength(1);
    expect(answers.filter((a) => a.body.two_factor_required === true)).toHaveLength(19);
  });

  it('enables once under 20 identical requests at once', async () => {
    const u = await aUser(t.api);
    const status = await t.api.get('two_factor.php', { token: u.token });
    const code = await totp.current(status.body.secret, clock.now());
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => t.api.post('two_factor.php?action=enable', { code }, { token: u.token })),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 409).map((a) => a.body.code)).toEqual(Array(19).fill('two_factor_already_enabled'));
    const rows = await t.database.db.selectFrom('two_factor_recovery_codes').select('id').where('user_id', '=', u.id).execute();
    expect(rows).toHaveLength(10);
  });
});
