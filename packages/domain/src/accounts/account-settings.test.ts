import { describe, expect, it } from 'vitest';
import { InMemoryNotificationRepository, RecordingPushSender } from '../notifications/testing/in-memory-notifications.js';
import { NotificationService } from '../notifications/notification-service.js';
import { PreferenceGatedPushSender } from '../notifications/preference-gated-push.js';
import type { Actor } from '../shared/actor.js';
import { ManualClock } from '../shared/clock.js';
import { InMemoryUnitOfWork } from '../shared/testing/index.js';
import { AccountDeletionService } from './account-deletion.js';
import { MailDeliveryService } from './mail-outbox.js';
import { PasswordService } from './password-service.js';
import { asSeenBy, PreferenceService } from './preferences.js';
import {
  aNewUser,
  InMemoryAccessTokenRepository,
  InMemoryDeletionRequestRepository,
  InMemoryMailOutbox,
  InMemoryNotificationPreferenceRepository,
  InMemoryUserRepository,
  PlainPasswordHasher,
  RecordingDeliveryLog,
  RecordingMailer,
  SequentialSecretTokens,
  TombstoneAccountEraser,
} from './testing/index.js';

const actorOf = (u: { id: number; username: string }): Actor => ({
  userId: u.id,
  username: u.username,
  isAdmin: false,
  isModerator: false,
  isTechnician: false,
});

function world() {
  const users = new InMemoryUserRepository();
  const tokens = new InMemoryAccessTokenRepository(users);
  const prefs = new InMemoryNotificationPreferenceRepository();
  const outbox = new InMemoryMailOutbox();
  const requests = new InMemoryDeletionRequestRepository();
  const clock = new ManualClock('2026-05-01T00:00:00Z');
  const mailer = new RecordingMailer();
  const mail = new MailDeliveryService(outbox, mailer, clock, new RecordingDeliveryLog());
  const secrets = new SequentialSecretTokens();
  const hasher = new PlainPasswordHasher();
  const uow = new InMemoryUnitOfWork(users, tokens, prefs, outbox, requests);
  return { users, tokens, prefs, outbox, requests, clock, mailer, mail, secrets, hasher, uow };
}

describe('PreferenceService', () => {
  it('answers every key with its default, and changes one key at a time', async () => {
    const w = world();
    const service = new PreferenceService(w.users, w.prefs, w.clock, w.uow);
    const u = await w.users.create(aNewUser());
    const before = await service.view(actorOf(u));
    expect(before).toMatchObject({
      notifications_push: true,
      notifications_email: false,
      privacy_private_account: false,
      privacy_online_status: true,
    });
    expect(Object.keys(before)).toHaveLength(12);
    const after = await service.update(actorOf(u), { notifications_likes: false });
    expect(after).toEqual({ ...before, notifications_likes: false });
    const priv = await service.update(actorOf(u), { privacy_private_account: true, privacy_read_receipts: false });
    expect(priv).toMatchObject({ privacy_private_account: true, privacy_read_receipts: false, notifications_likes: false });
    // The privacy switches are the account's own flags, which the other contexts read.
    expect(await w.users.findById(u.id)).toMatchObject({ is_private: true, read_receipts: false });
    await expect(service.update(actorOf(u), {})).rejects.toMatchObject({ code: 'no_preference' });
  });

  it('hides presence from others only', async () => {
    const w = world();
    const u = await w.users.create(aNewUser());
    await w.users.touchLastActive(u.id, '2026-05-01 00:00:00');
    await w.users.setPrivacy(u.id, { show_online_status: false });
    const stored = (await w.users.findById(u.id))!;
    expect(asSeenBy(stored, u.id).last_active_at).toBe('2026-05-01 00:00:00');
    expect(asSeenBy(stored, u.id + 1).last_active_at).toBeNull();
  });
});

describe('notification switches', () => {
  it('store no notification of a switched-off kind, and push only what both switches allow', async () => {
    const w = world();
    const repo = new InMemoryNotificationRepository();
    const transport = new RecordingPushSender();
    const push = new PreferenceGatedPushSender(transport, w.prefs);
    const notifications = new NotificationService(repo, push, w.clock, w.prefs);
    const [a, b] = [await w.users.create(aNewUser()), await w.users.create(aNewUser())];
    await w.prefs.set(b.id, { notifications_likes: false }, '2026-05-01 00:00:00');
    expect(
      await notifications.raise({ user_id: b.id, from_user_id: a.id, type: 'like', post_id: 1 }, { title: 't', body: 'b' }),
    ).toBeNull();
    expect(await notifications.raise({ user_id: b.id, from_user_id: a.id, type: 'follow' }, { title: 't', body: 'b' })).not.toBeNull();
    expect(transport.sent.map((s) => s.message.data.type)).toEqual(['follow']);
    await w.prefs.set(b.id, { notifications_push: false }, '2026-05-01 00:00:00');
    expect(await notifications.raise({ user_id: b.id, from_user_id: a.id, type: 'follow' }, { title: 't', body: 'b' })).not.toBeNull();
    expect(transport.sent).toHaveLength(1);
    await push.send(b.id, { title: 'x', body: 'y', data: { type: 'call' } });
    expect(transport.sent.map((s) => s.message.data.type)).toEqual(['follow', 'call']);
    await w.prefs.set(a.id, { notifications_messages: false }, '2026-05-01 00:00:00');
    await push.send(a.id, { title: 'x', body: 'y', data: { type: 'message' } });
    expect(transport.sent).toHaveLength(2);
  });
});

describe('PasswordService', () => {
  it('needs the current password, keeps the asking session and ends the others', async () => {
    const w = world();
    const service = new PasswordService(w.users, w.tokens, w.hasher, w.secrets, w.clock, w.uow);
    const u = await w.users.create(aNewUser({ password_hash: 'plain:old password' }));
    const mine = await w.tokens.create({
      user_id: u.id,
      token_hash: w.secrets.hash('mine'),
      created_at: '2026-05-01 00:00:00',
      expires_at: '2027-01-01 00:00:00',
    });
    await w.tokens.create({
      user_id: u.id,
      token_hash: w.secrets.hash('other'),
      created_at: '2026-05-01 00:00:00',
      expires_at: '2027-01-01 00:00:00',
    });
    await expect(service.change(actorOf(u), { current_password: 'nope', new_password: 'a new password' }, 'mine')).rejects.toMatchObject({
      kind: 'forbidden',
      code: 'wrong_password',
    });
    await expect(service.change(actorOf(u), { current_password: 'old password', new_password: 'short' }, 'mine')).rejects.toMatchObject({
      code: 'password_too_short',
    });
    expect(await service.change(actorOf(u), { current_password: 'old password', new_password: 'a new password' }, 'mine')).toEqual({
      revoked_sessions: 1,
    });
    expect((await w.users.findWithSecrets(u.id))?.password_hash).toBe('plain:a new password');
    expect(await w.tokens.findActive(w.secrets.hash('mine'), '2026-05-02 00:00:00')).toMatchObject({ id: mine });
    expect(await w.tokens.findActive(w.secrets.hash('other'), '2026-05-02 00:00:00')).toBeNull();
  });
});

describe('AccountDeletionService', () => {
  function deletion(w: ReturnType<typeof world>) {
    return new AccountDeletionService(
      w.users,
      w.requests,
      new TombstoneAccountEraser(w.users, w.tokens),
      w.hasher,
      w.secrets,
      w.mail,
      w.clock,
      w.uow,
      {
        instanceName: 'plaza.test',
        confirmUrl: (t) => `http://plaza.test/api/v1/delete_account.php?token=${t}`,
      },
    );
  }

  it('refuses a wrong password with a 403 and mails nothing', async () => {
    const w = world();
    const u = await w.users.create(aNewUser({ password_hash: 'plain:pw123456' }));
    await expect(deletion(w).request(actorOf(u), 'wrong')).rejects.toMatchObject({ kind: 'forbidden', code: 'wrong_password' });
    await w.mail.idle();
    expect(w.mailer.sent).toHaveLength(0);
    expect(w.requests.rows).toHaveLength(0);
  });

  it('mails a link valid 24 hours that deletes the account once', async () => {
    const w = world();
    const service = deletion(w);
    const u = await w.users.create(aNewUser({ password_hash: 'plain:pw123456' }));
    expect(await service.request(actorOf(u), 'pw123456')).toEqual({ expires_at: '2026-05-02 00:00:00' });
    await w.mail.idle();
    const link = /https?:\/\/\S+token=(\S+)/.exec(w.mailer.sent[0].text)!;
    expect(w.mailer.sent[0].html).toContain('href="http://plaza.test/api/v1/delete_account.php?token=');
    expect(await service.confirm(link[1])).toEqual({ user_id: u.id });
    expect((await w.users.findById(u.id))?.deleted_at).toBe('2026-05-01 00:00:00');
    await expect(service.confirm(link[1])).rejects.toMatchObject({ code: 'invalid_deletion_token' });
  });

  it('lets a link expire after 24 hours', async () => {
    const w = world();
    const service = deletion(w);
    const u = await w.users.create(aNewUser({ password_hash: 'plain:pw123456' }));
    await service.request(actorOf(u), 'pw123456');
    await w.mail.idle();
    const token = /token=(\S+)/.exec(w.mailer.sent[0].text)![1];
    w.clock.advance(24 * 3600_000 + 1000);
    await expect(service.confirm(token)).rejects.toMatchObject({ code: 'invalid_deletion_token' });
    expect((await w.users.findById(u.id))?.deleted_at).toBeNull();
  });
});
