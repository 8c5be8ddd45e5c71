import { describe, expect, it, vi } from 'vitest';
import { InMemoryUnitOfWork } from '../shared/testing/index.js';
import { ManualClock } from '../shared/clock.js';
import {
  FakeTotpVerifier,
  InMemoryAccessTokenRepository,
  InMemoryMailOutbox,
  InMemoryPasswordResetRepository,
  InMemoryRecoveryCodeRepository,
  InMemoryUserRepository,
  PlainPasswordHasher,
  RecordingDeliveryLog,
  RecordingMailer,
  SequentialSecretTokens,
} from './testing/index.js';
import { AuthService } from './auth-service.js';
import { MailDeliveryService } from './mail-outbox.js';
import { SecondFactor } from './two-factor.js';

function setup() {
  const users = new InMemoryUserRepository();
  const tokens = new InMemoryAccessTokenRepository(users);
  const resets = new InMemoryPasswordResetRepository();
  const totp = new FakeTotpVerifier();
  const mailer = new RecordingMailer();
  const clock = new ManualClock('2026-05-01T00:00:00Z');
  const recovery = new InMemoryRecoveryCodeRepository();
  const outbox = new InMemoryMailOutbox();
  const uow = new InMemoryUnitOfWork(users, tokens, resets, recovery, outbox);
  const secrets = new SequentialSecretTokens();
  const mail = new MailDeliveryService(outbox, mailer, clock, new RecordingDeliveryLog());
  const auth = new AuthService(
    users,
    tokens,
    resets,
    new PlainPasswordHasher(),
    new SecondFactor(users, recovery, totp, secrets, clock),
    secrets,
    mail,
    clock,
    { tokenTtlDays: 30, resetTtlMinutes: 60, instanceName: 'plaza.test' },
    uow,
  );
  return { auth, users, tokens, resets, totp, mailer, clock, uow, mail, outbox, recovery, secrets };
}

describe('AuthService', () => {
  it('registers, logs in and authenticates', async () => {
    const { auth } = setup();
    const user = await auth.register({ username: 'alice', email: 'Alice@Example.test', password: 'password123' });
    expect(user.email).toBe('alice@example.test');
    const result = await auth.login({ login: 'alice', password: 'password123' });
    expect(result.kind).toBe('token');
    if (result.kind !== 'token') return;
    expect(result.issued.expires_at).toBe('2026-05-31 00:00:00');
    expect((await auth.authenticate(result.issued.token)).userId).toBe(user.id);
  });

  it('stores token hashes, never the token', async () => {
    const { auth, tokens } = setup();
    await auth.register({ username: 'bob', email: 'bob@example.test', password: 'password123' });
    const r = await auth.login({ login: 'bob', password: 'password123' });
    if (r.kind !== 'token') throw new Error('expected a token');
    expect(tokens.rows.map((t) => t.token_hash)).not.toContain(r.issued.token);
  });

  it('fails identically for unknown users and wrong passwords', async () => {
    const { auth } = setup();
    await auth.register({ username: 'carol', email: 'carol@example.test', password: 'password123' });
    const a = await auth.login({ login: 'carol', password: 'nope' }).catch((e) => e);
    const b = await auth.login({ login: 'nobody', password: 'nope' }).catch((e) => e);
    expect(a.code).toBe('invalid_credentials');
    expect(b.code).toBe(a.code);
    expect(b.message).toBe(a.message);
  });

  it('requires a valid TOTP code when two-factor is on', async () => {
    const { auth, users, totp } = setup();
    const u = await auth.register({ username: 'dave', email: 'dave@example.test', password: 'password123' });
    await users.setTwoFactor(u.id, 'SECRET', true);
    totp.valid.set('SECRET', '123456');
    expect((await auth.login({ login: 'dave', password: 'password123' })).kind).toBe('two_factor_required');
    expect((await auth.login({ login: 'dave', password: 'password123', totp: '654321' })).kind).toBe('two_factor_required');
    expect((await auth.login({ login: 'dave', password: 'password123', totp: '123456' })).kind).toBe('token');
  });

  it('expires tokens and refuses revoked ones', async () => {
    const { auth, clock } = setup();
    await auth.register({ username: 'erin', email: 'erin@example.test', password: 'password123' });
    const r = await auth.login({ login: 'erin', password: 'password123' });
    if (r.kind !== 'token') throw new Error('expected a token');
    const fresh = await auth.refresh(r.issued.token);
    await expect(auth.authenticate(r.issued.token)).rejects.toMatchObject({ code: 'invalid_token' });
    clock.advance(31 * 86_400_000);
    await expect(auth.authenticate(fresh.token)).rejects.toMatchObject({ code: 'invalid_token' });
  });

  it('mails a single-use reset code only to existing accounts', async () => {
    const { auth, mailer, mail } = setup();
    await auth.forgotPassword('ghost@example.test');
    await mail.idle();
    expect(mailer.sent).toHaveLength(0);
    await auth.register({ username: 'fay', email: 'fay@example.test', password: 'password123' });
    await auth.forgotPassword('FAY@example.test');
    await mail.idle();
    expect(mailer.sent).toHaveLength(1);
    const code = mailer.sent[0].text.split('\n').find((l) => l.startsWith('secret-'))!;
    await auth.resetPassword({ token: code, password: 'new password!' });
    await expect(auth.resetPassword({ token: code, password: 'again password' })).rejects.toMatchObject({ code: 'invalid_reset_token' });
    expect((await auth.login({ login: 'fay', password: 'new password!' })).kind).toBe('token');
  });

  it('resets all or nothing: a failure ending the sessions leaves the code usable and the old password working', async () => {
    const { auth, mailer, tokens, uow, mail } = setup();
    await auth.register({ username: 'hal', email: 'hal@example.test', password: 'password123' });
    const session = await auth.login({ login: 'hal', password: 'password123' });
    if (session.kind !== 'token') throw new Error('expected a token');
    await auth.forgotPassword('hal@example.test');
    await mail.idle();
    const code = mailer.sent[0].text.split('\n').find((l) => l.startsWith('secret-'))!;
    vi.spyOn(tokens, 'revokeAllOfUser').mockRejectedValueOnce(new Error('connection lost'));
    await expect(auth.resetPassword({ token: code, password: 'new password!' })).rejects.toThrow('connection lost');
    expect(uow.rollbacks).toBe(1);
    expect((await auth.login({ login: 'hal', password: 'password123' })).kind).toBe('token');
    expect((await auth.authenticate(session.issued.token)).username).toBe('hal');
    // The code was not used up: the retry goes through, and ends the old session.
    await auth.resetPassword({ token: code, password: 'new password!' });
    expect((await auth.login({ login: 'hal', password: 'new password!' })).kind).toBe('token');
    await expect(auth.authenticate(session.issued.token)).rejects.toMatchObject({ code: 'invalid_token' });
  });

  it('refreshes a token once: a failure issuing the new one leaves the old one valid; a second refresh gets nothing', async () => {
    const { auth, tokens } = setup();
    await auth.register({ username: 'ida', email: 'ida@example.test', password: 'password123' });
    const r = await auth.login({ login: 'ida', password: 'password123' });
    if (r.kind !== 'token') throw new Error('expected a token');
    vi.spyOn(tokens, 'create').mockRejectedValueOnce(new Error('disk full'));
    await expect(auth.refresh(r.issued.token)).rejects.toThrow('disk full');
    expect((await auth.authenticate(r.issued.token)).username).toBe('ida');
    // Both read the token as active; only the one that revokes it gets a new token.
    const [first, second] = await Promise.allSettled([auth.refresh(r.issued.token), auth.refresh(r.issued.token)]);
    expect([first.status, second.status].sort()).toEqual(['fulfilled', 'rejected']);
  });

  it('reserves the names and addresses of deleted accounts’ tombstones', async () => {
    const { auth } = setup();
    await expect(auth.register({ username: 'deleted_12', email: 'x@example.test', password: 'password123' })).rejects.toMatchObject({
      code: 'invalid_username',
    });
    await expect(
      auth.register({ username: 'fine_name', email: 'deleted_12@deleted.invalid', password: 'password123' }),
    ).rejects.toMatchObject({ code: 'invalid_email' });
  });

  it('rejects short passwords', async () => {
    const { auth } = setup();
    await expect(auth.register({ username: 'gus', email: 'gus@example.test', password: 'short' })).rejects.toMatchObject({
      code: 'password_too_short',
    });
  });
});
