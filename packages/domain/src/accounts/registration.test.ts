import { describe, expect, it } from 'vitest';
import type { Actor } from '../shared/actor.js';
import { ManualClock } from '../shared/clock.js';
import { pageRequest } from '../shared/pagination.js';
import { InMemoryUnitOfWork } from '../shared/testing/index.js';
import { AuthService } from './auth-service.js';
import { MailDeliveryService } from './mail-outbox.js';
import { RegistrationAdminService, type RegistrationDecisionLog } from './registration-admin.js';
import { AccountAdmission, type RegistrationPolicy, RegistrationService } from './registration.js';
import {
  FakeTotpVerifier,
  InMemoryAccessTokenRepository,
  InMemoryAccountHoldRepository,
  InMemoryEmailConfirmationRepository,
  InMemoryInvitationRepository,
  InMemoryMailOutbox,
  InMemoryPasswordResetRepository,
  InMemoryRecoveryCodeRepository,
  InMemoryUserRepository,
  PlainPasswordHasher,
  RecordingDeliveryLog,
  RecordingMailer,
  SequentialSecretTokens,
} from './testing/index.js';
import { SecondFactor } from './two-factor.js';

function setup(policy: RegistrationPolicy) {
  const users = new InMemoryUserRepository();
  const tokens = new InMemoryAccessTokenRepository(users);
  const resets = new InMemoryPasswordResetRepository();
  const recovery = new InMemoryRecoveryCodeRepository();
  const outbox = new InMemoryMailOutbox();
  const holds = new InMemoryAccountHoldRepository(users);
  const invitations = new InMemoryInvitationRepository();
  const confirmations = new InMemoryEmailConfirmationRepository();
  const uow = new InMemoryUnitOfWork(users, tokens, resets, recovery, outbox, holds, invitations, confirmations);
  const clock = new ManualClock('2026-11-27T12:00:00Z');
  const secrets = new SequentialSecretTokens();
  const mailer = new RecordingMailer();
  const mail = new MailDeliveryService(outbox, mailer, clock, new RecordingDeliveryLog());
  const admission = new AccountAdmission(holds, policy);
  const auth = new AuthService(
    users,
    tokens,
    resets,
    new PlainPasswordHasher(),
    new SecondFactor(users, recovery, new FakeTotpVerifier(), secrets, clock),
    secrets,
    mail,
    clock,
    { tokenTtlDays: 30, resetTtlMinutes: 60, instanceName: 'plaza.test' },
    uow,
    admission,
  );
  const registration = new RegistrationService(auth, users, holds, invitations, confirmations, secrets, mail, clock, uow, {
    policy,
    instanceName: 'plaza.test',
    confirmUrl: (secret) => `https://plaza.test/confirm?token=${secret}`,
  });
  const logged: Parameters<RegistrationDecisionLog['record']>[0][] = [];
  const eraser = { erase: async (userId: number, at: string) => void (users.rows.get(userId)!.deleted_at = at) };
  const admin = new RegistrationAdminService(
    users,
    holds,
    invitations,
    eraser,
    secrets,
    mail,
    clock,
    uow,
    { record: async (e) => void logged.push(e) },
    { instanceName: 'plaza.test' },
  );
  return { auth, registration, admin, holds, invitations, users, uow, mailer, mail, logged, clock };
}

const person = (name: string) => ({ username: name, email: `${name}@example.test`, password: 'password123' });
const actor = (userId: number, roles: Partial<Pick<Actor, 'isAdmin' | 'isModerator'>>): Actor => ({
  userId,
  username: `u${userId}`,
  isAdmin: false,
  isModerator: false,
  isTechnician: false,
  ...roles,
});

describe('RegistrationService', () => {
  it('refuses every registration when closed, before any rule of the account', async () => {
    const { registration, users } = setup({ mode: 'closed', emailConfirm: false });
    await expect(registration.register({ ...person('x'), password: '' })).rejects.toMatchObject({
      kind: 'forbidden',
      code: 'registration_closed',
    });
    expect(users.rows.size).toBe(0);
  });

  it('spends no use of an invitation on a registration refused for its own reasons', async () => {
    const { registration, admin, invitations } = setup({ mode: 'invite', emailConfirm: false });
    const { code, invitation } = await admin.createInvitation(actor(99, { isAdmin: true }), { maxUses: 1, expiresInDays: null });
    await registration.register({ ...person('first'), invite_code: code });
    const { code: second } = await admin.createInvitation(actor(99, { isAdmin: true }), { maxUses: 1, expiresInDays: 2 });
    // The name is taken: the unit that counted the use rolls back with the refused account.
    await expect(registration.register({ ...person('first'), email: 'other@example.test', invite_code: second })).rejects.toMatchObject({
      code: 'username_taken',
    });
    expect(invitations.rows.find((r) => r.id === invitation.id + 1)?.uses).toBe(0);
    await expect(registration.register({ ...person('third'), invite_code: code })).rejects.toMatchObject({ code: 'invite_used_up' });
    expect((await registration.register({ ...person('fourth'), invite_code: ` ${second} ` })).user.username).toBe('fourth');
  });

  it('holds an account for approval and its e-mail, and lets it in only once both are done', async () => {
    const { registration, auth, admin, mailer, mail } = setup({ mode: 'approval', emailConfirm: true });
    const { user, awaiting } = await registration.register(person('ann'));
    expect(awaiting).toEqual(['email_confirmation', 'approval']);
    await expect(auth.login({ login: 'ann', password: 'password123' })).rejects.toMatchObject({ code: 'email_unconfirmed' });
    await expect(auth.login({ login: 'ann', password: 'wrong' })).rejects.toMatchObject({ code: 'invalid_credentials' });
    await mail.idle();
    const secret = /token=(\S+)/.exec(mailer.sent.at(-1)!.text)![1];
    expect(await registration.confirmEmail(secret)).toEqual({ user_id: user.id, awaiting_approval: true });
    await expect(registration.confirmEmail(secret)).rejects.toMatchObject({ code: 'invalid_confirmation_token' });
    await expect(auth.login({ login: 'ann', password: 'password123' })).rejects.toMatchObject({ code: 'approval_pending' });
    await admin.approve(actor(7, { isModerator: true }), user.id);
    expect((await auth.login({ login: 'ann', password: 'password123' })).kind).toBe('token');
  });

  it('mails a new link at most every five minutes per account, and nothing to an address that does not wait', async () => {
    const { registration, mailer, mail, clock } = setup({ mode: 'open', emailConfirm: true });
    await registration.register(person('dan'));
    await registration.resendConfirmation('DAN@example.test');
    await registration.resendConfirmation('nobody@example.test');
    await mail.idle();
    expect(mailer.sent.map((m) => m.to)).toEqual(['dan@example.test']);
    clock.advance(301_000);
    await registration.resendConfirmation('dan@example.test');
    await mail.idle();
    expect(mailer.sent.map((m) => m.to)).toEqual(['dan@example.test', 'dan@example.test']);
  });

  it('forgets the e-mail hold once the operator turns confirmation off', async () => {
    const on = setup({ mode: 'open', emailConfirm: true });
    const { user } = await on.registration.register(person('bob'));
    await expect(on.auth.login({ login: 'bob', password: 'password123' })).rejects.toMatchObject({ code: 'email_unconfirmed' });
    const off = new AccountAdmission(on.holds, { mode: 'open', emailConfirm: false });
    await expect(off.assertMayLogIn(user.id)).resolves.toBeUndefined();
  });
});

describe('RegistrationAdminService', () => {
  it('lets moderators decide registrations and only administrators manage invitations', async () => {
    const { registration, admin, logged } = setup({ mode: 'approval', emailConfirm: false });
    const { user } = await registration.register(person('cat'));
    const plain = actor(5, {});
    await expect(admin.pending(plain, pageRequest(1, 10))).rejects.toMatchObject({ kind: 'forbidden' });
    await expect(admin.approve(plain, user.id)).rejects.toMatchObject({ kind: 'forbidden' });
    await expect(admin.createInvitation(actor(6, { isModerator: true }), { maxUses: 1, expiresInDays: null })).rejects.toMatchObject({
      kind: 'forbidden',
    });
    await expect(admin.invitationList(actor(6, { isModerator: true }), pageRequest(1, 10))).rejects.toMatchObject({ kind: 'forbidden' });
    expect((await admin.pending(actor(6, { isModerator: true }), pageRequest(1, 10))).items.map((p) => p.username)).toEqual(['cat']);
    await admin.reject(actor(6, { isModerator: true }), user.id, ' Spam ');
    await expect(admin.approve(actor(6, { isModerator: true }), user.id)).rejects.toMatchObject({ kind: 'not_found' });
    expect(logged).toEqual([
      expect.objectContaining({
        action_type: 'reject_signup',
        moderator_id: 6,
        target_user_id: user.id,
        reason: 'Registration of @cat rejected: Spam',
      }),
    ]);
  });

  it('refuses invitations of no use, too many uses or a bad expiry', async () => {
    const { admin } = setup({ mode: 'invite', emailConfirm: false });
    const boss = actor(1, { isAdmin: true });
    for (const input of [
      { maxUses: 0, expiresInDays: null },
      { maxUses: 10_001, expiresInDays: null },
      { maxUses: Number.NaN, expiresInDays: null },
      { maxUses: 1, expiresInDays: 0 },
      { maxUses: 1, expiresInDays: 3651 },
    ]) {
      await expect(admin.createInvitation(boss, input)).rejects.toMatchObject({ kind: 'invalid' });
    }
    const { invitation } = await admin.createInvitation(boss, { maxUses: 3, expiresInDays: 2 });
    expect(invitation).toMatchObject({ max_uses: 3, uses: 0, expires_at: '2026-11-29 12:00:00', created_by: 1 });
    await admin.revokeInvitation(boss, invitation.id);
    await expect(admin.revokeInvitation(boss, invitation.id)).rejects.toMatchObject({ code: 'invitation_not_found' });
  });
});
