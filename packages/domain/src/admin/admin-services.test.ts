import { describe, expect, it } from 'vitest';
import { AuthService } from '../accounts/auth-service.js';
import { MailDeliveryService } from '../accounts/mail-outbox.js';
import {
  aNewUser,
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
} from '../accounts/testing/index.js';
import { SecondFactor } from '../accounts/two-factor.js';
import type { Actor } from '../shared/actor.js';
import { ManualClock } from '../shared/clock.js';
import { InMemoryUnitOfWork } from '../shared/testing/index.js';
import { AdminAccountService } from './admin-accounts.js';
import { AdminRoleService } from './admin-roles.js';
import type { MediaServerValues, TurnValues } from './model.js';
import { coturnBlock, MediaServerSettingsService, PasswordConfirmation, secretHint, TurnSettingsService } from './relay-settings.js';
import { InMemoryAdminRoster, InMemorySettingsStore } from './testing/index.js';

function setup() {
  const users = new InMemoryUserRepository();
  const tokens = new InMemoryAccessTokenRepository(users);
  const clock = new ManualClock('2026-05-01T00:00:00Z');
  const recovery = new InMemoryRecoveryCodeRepository();
  const outbox = new InMemoryMailOutbox();
  const secrets = new SequentialSecretTokens();
  const hasher = new PlainPasswordHasher();
  const auth = new AuthService(
    users,
    tokens,
    new InMemoryPasswordResetRepository(),
    hasher,
    new SecondFactor(users, recovery, new FakeTotpVerifier(), secrets, clock),
    secrets,
    new MailDeliveryService(outbox, new RecordingMailer(), clock, new RecordingDeliveryLog()),
    clock,
    { tokenTtlDays: 30, resetTtlMinutes: 60, instanceName: 'plaza.test' },
    new InMemoryUnitOfWork(users, tokens),
  );
  const password = new PasswordConfirmation(users, hasher);
  const mediaFile = new InMemorySettingsStore<MediaServerValues>('config/media_server.local.php');
  const turnFile = new InMemorySettingsStore<TurnValues>('config/turn.local.php');
  const noMediaEnv = { url: null, apiKey: null, apiSecret: null };
  const noTurnEnv = { urls: [], authSecret: null, ttl: 86_400, realm: null, username: null, credential: null };
  return {
    users,
    tokens,
    clock,
    accounts: new AdminAccountService(auth, tokens, users, secrets, clock, [7]),
    roles: new AdminRoleService(new InMemoryAdminRoster(users)),
    media: new MediaServerSettingsService(mediaFile, noMediaEnv, password),
    turn: new TurnSettingsService(turnFile, noTurnEnv, password),
    mediaFile,
    turnFile,
    password,
  };
}

const actor = (id: number, roles: Partial<Actor> = {}): Actor => ({
  userId: id,
  username: `u${id}`,
  isAdmin: false,
  isModerator: false,
  isTechnician: false,
  ...roles,
});

describe('MediaServerSettingsService', () => {
  it('is for technicians, checks the password and the values, keeps a blank secret, and never shows it back', async () => {
    const { users, media, mediaFile } = setup();
    const u = await users.create(aNewUser({ password_hash: 'plain:right password' }));
    const tech = actor(u.id, { isTechnician: true });
    await expect(media.view(actor(u.id))).rejects.toMatchObject({ kind: 'forbidden', code: 'not_technician' });
    const input = { url: 'wss://m.example.org', api_key: 'key', api_secret: 'a-secret-123', password: 'right password' };
    await expect(media.save(actor(u.id), input)).rejects.toMatchObject({ code: 'not_technician' });
    await expect(media.save(tech, { ...input, password: 'wrong' })).rejects.toMatchObject({ kind: 'forbidden', code: 'wrong_password' });
    await expect(media.save(tech, { ...input, url: 'https://m.example.org' })).rejects.toMatchObject({
      kind: 'invalid',
      details: [{ field: 'url' }],
    });
    await expect(media.save(tech, { ...input, api_secret: '' })).rejects.toMatchObject({ details: [{ field: 'api_secret' }] });
    expect(mediaFile.writes).toBe(0);
    await media.save(tech, input);
    await media.save(tech, { ...input, api_key: 'key2', api_secret: '' });
    expect(await mediaFile.read()).toEqual({ url: 'wss://m.example.org', api_key: 'key2', api_secret: 'a-secret-123' });
    const view = await media.view(tech);
    expect(view).toMatchObject({
      url: 'wss://m.example.org',
      api_key: 'key2',
      secret_hint: '••••••••-123',
      source: 'file',
      environment: [],
    });
    expect(JSON.stringify(view)).not.toContain('a-secret-123');
  });

  it('lets all three environment variables win over the file, and ignores fewer', async () => {
    const file = new InMemorySettingsStore<MediaServerValues>();
    await file.write({ url: 'wss://file', api_key: 'fk', api_secret: 'fs' });
    const { password } = setup();
    const full = new MediaServerSettingsService(file, { url: 'wss://env', apiKey: 'ek', apiSecret: 'es' }, password);
    expect(await full.effective()).toEqual({ values: { url: 'wss://env', api_key: 'ek', api_secret: 'es' }, source: 'environment' });
    const partial = new MediaServerSettingsService(file, { url: 'wss://env', apiKey: null, apiSecret: null }, password);
    expect(await partial.effective()).toEqual({ values: { url: 'wss://file', api_key: 'fk', api_secret: 'fs' }, source: 'file' });
    expect((await partial.view(actor(1, { isTechnician: true }))).environment).toEqual(['MEDIA_SERVER_URL']);
  });
});

describe('TurnSettingsService', () => {
  it('saves the relay with the password, and the environment wins when WEBRTC_TURN_URLS is set', async () => {
    const { users, turn, turnFile, password } = setup();
    const u = await users.create(aNewUser({ password_hash: 'plain:right password' }));
    const tech = actor(u.id, { isTechnician: true });
    const input = {
      urls: 'turn:t.example.org:3478\nturns:t.example.org:5349',
      secret: 's'.repeat(20),
      ttl: '600',
      realm: 't.example.org',
      password: 'right password',
    };
    await expect(turn.save(tech, { ...input, urls: 'http://x' })).rejects.toMatchObject({ details: [{ field: 'urls' }] });
    await expect(turn.save(tech, { ...input, ttl: '10' })).rejects.toMatchObject({ details: [{ field: 'ttl' }] });
    await expect(turn.save(tech, { ...input, password: 'nope' })).rejects.toMatchObject({ code: 'wrong_password' });
    expect(turnFile.writes).toBe(0);
    expect(await turn.save(tech, input)).toEqual({
      urls: ['turn:t.example.org:3478', 'turns:t.example.org:5349'],
      secret: 's'.repeat(20),
      ttl: 600,
      realm: 't.example.org',
    });
    expect(await turn.effective()).toMatchObject({
      source: 'file',
      values: { urls: ['turn:t.example.org:3478', 'turns:t.example.org:5349'], ttl: 600, username: null },
    });
    const env = new TurnSettingsService(
      turnFile,
      { urls: ['turn:env:3478'], authSecret: 'e', ttl: 60, realm: null, username: null, credential: null },
      password,
    );
    expect(await env.effective()).toMatchObject({ source: 'environment', values: { urls: ['turn:env:3478'], secret: 'e' } });
    expect((await env.view(tech)).environment).toBe(true);
    expect(coturnBlock({ secret: 'abc', realm: 'r' })).toBe('use-auth-secret\nstatic-auth-secret=abc\nrealm=r');
    expect(secretHint('short')).toBe('•••••');
  });
});

describe('AdminRoleService', () => {
  it('is for administrators, and refuses the last one withdrawing', async () => {
    const { users, roles } = setup();
    const a = await users.create(aNewUser({ is_admin: true }));
    const b = await users.create(aNewUser());
    await expect(roles.list(actor(b.id, { isTechnician: true }), null, { page: 1, perPage: 10 })).rejects.toMatchObject({
      code: 'not_admin',
    });
    await expect(roles.promote(actor(b.id), a.id)).rejects.toMatchObject({ kind: 'forbidden' });
    const admin = actor(a.id, { isAdmin: true });
    await expect(roles.withdraw(admin, a.id)).rejects.toMatchObject({ kind: 'conflict', code: 'last_admin' });
    await roles.promote(admin, b.id);
    await expect(roles.promote(admin, b.id)).rejects.toMatchObject({ code: 'not_promoted' });
    await roles.withdraw(admin, a.id);
    expect((await users.findById(a.id))?.is_admin).toBe(false);
    await expect(roles.withdraw(admin, b.id)).rejects.toMatchObject({ kind: 'forbidden', code: 'not_admin' });
  });
});

describe('AdminAccountService', () => {
  it("signs in through the login, resumes while the token lives, lists, creates and revokes only one's own tokens", async () => {
    const { users, accounts, clock } = setup();
    const u = await users.create(aNewUser({ password_hash: 'plain:right password' }));
    const other = await users.create(aNewUser({ password_hash: 'plain:other password' }));
    await expect(accounts.signIn({ login: u.username, password: 'wrong', totp: null })).rejects.toMatchObject({
      code: 'invalid_credentials',
    });
    const signed = await accounts.signIn({ login: u.email, password: 'right password', totp: null });
    if (signed.kind !== 'signed_in') throw new Error('expected a sign-in');
    const resumed = await accounts.resume(signed.tokenHash);
    expect(resumed?.actor.userId).toBe(u.id);
    const created = await accounts.createToken(resumed!.actor);
    const list = await accounts.listTokens(resumed!.actor);
    expect(list.map((x) => x.id)).toEqual([2, 1]);
    expect(list[1].last_used_at).toBe('2026-05-01 00:00:00');
    const theirs = await accounts.signIn({ login: other.username, password: 'other password', totp: null });
    if (theirs.kind !== 'signed_in') throw new Error('expected a sign-in');
    await expect(accounts.revokeToken(resumed!.actor, 3)).rejects.toMatchObject({ kind: 'not_found' });
    expect(await accounts.resume(theirs.tokenHash)).not.toBeNull();
    await accounts.revokeToken(resumed!.actor, 2);
    expect(created.token).toBeTruthy();
    await accounts.signOut(signed.tokenHash);
    expect(await accounts.resume(signed.tokenHash)).toBeNull();
    clock.advance(31 * 86_400_000);
    expect(await accounts.resume(theirs.tokenHash)).toBeNull();
  });

  it('treats MEDIA_TECHNICIAN_USER_IDS as technicians', async () => {
    const { users, accounts } = setup();
    for (let i = 0; i < 7; i++) await users.create(aNewUser({ password_hash: 'plain:pw-123456' }));
    const seventh = await users.findById(7);
    const signed = await accounts.signIn({ login: seventh!.username, password: 'pw-123456', totp: null });
    expect(signed.kind === 'signed_in' && signed.actor.isTechnician).toBe(true);
  });
});
