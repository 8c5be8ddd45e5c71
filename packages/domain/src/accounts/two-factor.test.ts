import { describe, expect, it } from 'vitest';
import { ManualClock } from '../shared/clock.js';
import { InMemoryUnitOfWork } from '../shared/testing/index.js';
import { MailDeliveryService } from './mail-outbox.js';
import {
  FakeTotpVerifier,
  InMemoryAccessTokenRepository,
  InMemoryReauthenticationAttempts,
  PlainPasswordHasher,
  InMemoryMailOutbox,
  InMemoryRecoveryCodeRepository,
  InMemoryUserRepository,
  RecordingDeliveryLog,
  RecordingMailer,
  SequentialSecretTokens,
  aNewUser,
} from './testing/index.js';
import { normalizeRecoveryCode, recoveryCodeFrom, SecondFactor, TwoFactorService } from './two-factor.js';
import { Reauthentication } from './reauthentication.js';
import type { Actor } from '../shared/actor.js';

async function setup() {
  const users = new InMemoryUserRepository();
  const recovery = new InMemoryRecoveryCodeRepository();
  const outbox = new InMemoryMailOutbox();
  const totp = new FakeTotpVerifier();
  const secrets = new SequentialSecretTokens();
  const clock = new ManualClock('2026-05-01T00:00:00Z');
  const mailer = new RecordingMailer();
  const mail = new MailDeliveryService(outbox, mailer, clock, new RecordingDeliveryLog());
  const uow = new InMemoryUnitOfWork(users, recovery, outbox);
  const second = new SecondFactor(users, recovery, totp, secrets, clock);
  const reauthentication = new Reauthentication(
    new InMemoryAccessTokenRepository(users),
    new InMemoryReauthenticationAttempts(),
    new PlainPasswordHasher(),
    second,
    secrets,
    clock,
  );
  const service = new TwoFactorService(users, recovery, totp, secrets, mail, clock, uow, { issuer: 'plaza.test' }, reauthentication);
  const user = await users.create(aNewUser({ username: 'tina' }));
  const actor: Actor = { userId: user.id, username: user.username, isAdmin: false, isModerator: false, isTechnician: false };
  return { users, recovery, outbox, totp, mailer, mail, uow, service, second, user, actor };
}

describe('TwoFactorService', () => {
  it('keeps one pending secret until enabled, with its otpauth URL', async () => {
    const { service, actor } = await setup();
    const first = await service.status(actor);
    expect(first).toMatchObject({ enabled: false, secret: expect.any(String), recovery_codes_remaining: 0 });
    expect(first.otpauth_url).toMatch(/^otpauth:\/\/totp\/plaza\.test:tina\?secret=/);
    expect((await service.status(actor)).secret).toBe(first.secret);
  });

  it('refuses a wrong code and changes nothing; a right one enables it and returns ten recovery codes', async () => {
    const { service, actor, totp, users, recovery } = await setup();
    const { secret } = await service.status(actor);
    totp.accept(secret!, '123456', 100);
    await expect(service.enable(actor, '654321')).rejects.toMatchObject({ code: 'invalid_totp_code', kind: 'invalid' });
    expect((await users.findById(actor.userId))?.totp_enabled).toBe(false);
    const { recovery_codes } = await service.enable(actor, '123456');
    expect(recovery_codes).toHaveLength(10);
    for (const c of recovery_codes) expect(c).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
    expect(new Set(recovery_codes).size).toBe(10);
    // Stored hashed only.
    expect(recovery.rows.map((r) => r.code_hash)).not.toContain(recovery_codes[0]);
    expect(await service.status(actor)).toMatchObject({ enabled: true, secret: null, recovery_codes_remaining: 10 });
    await expect(service.enable(actor, '123456')).rejects.toMatchObject({ code: 'two_factor_already_enabled' });
  });

  it('refuses at login the code that enabled it, a replay, and accepts a recovery code once', async () => {
    const { service, actor, totp, users, second } = await setup();
    const { secret } = await service.status(actor);
    totp.accept(secret!, '111111', 100);
    const { recovery_codes } = await service.enable(actor, '111111');
    const user = (await users.findWithSecrets(actor.userId))!;
    expect(await second.accepts(user, '111111')).toBe(false);
    totp.accept(secret!, '222222', 101);
    expect(await second.accepts(user, '222222')).toBe(true);
    expect(await second.accepts(user, '222222')).toBe(false);
    const spelled = recovery_codes[3].toUpperCase().replace('-', ' ');
    expect(await second.accepts(user, spelled)).toBe(true);
    expect(await second.accepts(user, recovery_codes[3])).toBe(false);
    expect(await second.accepts(user, 'not-a-code')).toBe(false);
  });

  it('disables, forgets the secret and the codes, and mails the owner in text and HTML', async () => {
    const { service, actor, totp, mailer, mail, recovery } = await setup();
    const { secret } = await service.status(actor);
    totp.accept(secret!, '123456', 7);
    await service.enable(actor, '123456');
    // No token in sudo mode and no password: refused, nothing changed.
    await expect(service.disable(actor, {})).rejects.toMatchObject({ code: 'reauthentication_required' });
    await expect(service.disable(actor, { password: 'password123' })).rejects.toMatchObject({ code: 'two_factor_code_required' });
    totp.accept(secret!, '654321', 8);
    await expect(service.disable(actor, { password: 'wrong password', code: '654321' })).rejects.toMatchObject({ code: 'wrong_password' });
    expect(await service.status(actor)).toMatchObject({ enabled: true, recovery_codes_remaining: 10 });
    expect(await service.disable(actor, { password: 'password123', code: '654321' })).toEqual({ disabled: true });
    await mail.idle();
    expect(mailer.sent).toHaveLength(1);
    expect(mailer.sent[0]).toMatchObject({ to: expect.stringContaining('@example.test'), subject: expect.stringContaining('two-factor') });
    expect(mailer.sent[0].html).toContain('<p>');
    expect(await recovery.countUnused(actor.userId)).toBe(0);
    expect(await service.status(actor)).toMatchObject({ enabled: false, secret: expect.any(String) });
    expect((await service.status(actor)).secret).not.toBe(secret);
    // Already off: nothing to tell, nothing to prove.
    expect(await service.disable(actor, {})).toEqual({ disabled: false });
    await mail.idle();
    expect(mailer.sent).toHaveLength(1);
  });
});

describe('TwoFactorService.regenerateRecoveryCodes', () => {
  it('replaces every code with the password, refuses without it or while two-factor is off', async () => {
    const { service, actor, totp } = await setup();
    await expect(service.regenerateRecoveryCodes(actor, { password: 'password123' })).rejects.toMatchObject({
      code: 'two_factor_not_enabled',
    });
    const { secret } = await service.status(actor);
    totp.accept(secret!, '123456', 7);
    const first = (await service.enable(actor, '123456')).recovery_codes;
    await expect(service.regenerateRecoveryCodes(actor, {})).rejects.toMatchObject({ code: 'reauthentication_required' });
    await expect(service.regenerateRecoveryCodes(actor, { password: 'nope nope' })).rejects.toMatchObject({ code: 'wrong_password' });
    const { recovery_codes } = await service.regenerateRecoveryCodes(actor, { password: 'password123' });
    expect(recovery_codes).toHaveLength(10);
    expect(recovery_codes.filter((c) => first.includes(c))).toEqual([]);
  });
});

describe('recovery codes', () => {
  it('are made of a random token and read back whatever their spelling', () => {
    const code = recoveryCodeFrom('AbCdEfGhIjKlMnOp_-0123');
    expect(code).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
    expect(normalizeRecoveryCode(code.toUpperCase().replace('-', ''))).toBe(code);
    expect(normalizeRecoveryCode('abc')).toBeNull();
    expect(normalizeRecoveryCode('1111111111')).toBeNull();
  });
});
