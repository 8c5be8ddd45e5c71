import { beforeEach, describe, expect, it } from 'vitest';
import type { AccountEraser, DeletionRequestRepository } from '../account-deletion.js';
import type { AccountDataReader, ExportRow } from '../export.js';
import type { MailOutbox } from '../mail-outbox.js';
import type { AccessTokenRepository, UserRepository } from '../ports.js';
import type { NotificationPreferenceRepository } from '../preferences.js';
import type { RecoveryCodeRepository } from '../two-factor.js';
import type { FollowRepository } from '../../social/ports.js';
import type { PostRepository } from '../../content/ports.js';
import { aNewUser } from './mothers.js';

export interface AccountSettingsPorts {
  users: UserRepository;
  recovery: RecoveryCodeRepository;
  outbox: MailOutbox;
  preferences: NotificationPreferenceRepository;
  deletions: DeletionRequestRepository;
}

const message = { to: 'a@example.test', subject: 'Subject', text: 'text', html: '<p>html</p>' };

/** Two-factor recovery codes, the mail outbox, notification switches and deletion links: fake or SQL alike. */
export function accountSettingsContract(name: string, make: () => Promise<AccountSettingsPorts>) {
  describe(`${name}: account settings ports contract`, () => {
    let ports: AccountSettingsPorts;
    beforeEach(async () => {
      ports = await make();
    });

    it('replaces recovery codes, uses each once, counts and forgets them', async () => {
      const u = await ports.users.create(aNewUser());
      const other = await ports.users.create(aNewUser());
      await ports.recovery.replace(u.id, ['h1', 'h2', 'h3'], '2026-01-01 00:00:00');
      await ports.recovery.replace(other.id, ['h1'], '2026-01-01 00:00:00');
      expect(await ports.recovery.countUnused(u.id)).toBe(3);
      expect(await ports.recovery.consume(u.id, 'h2', '2026-01-02 00:00:00')).toBe(true);
      expect(await ports.recovery.consume(u.id, 'h2', '2026-01-02 00:00:01')).toBe(false);
      expect(await ports.recovery.consume(u.id, 'nope', '2026-01-02 00:00:01')).toBe(false);
      expect(await ports.recovery.countUnused(u.id)).toBe(2);
      await ports.recovery.replace(u.id, ['h4'], '2026-01-03 00:00:00');
      expect(await ports.recovery.consume(u.id, 'h1', '2026-01-03 00:00:00')).toBe(false);
      expect(await ports.recovery.countUnused(u.id)).toBe(1);
      await ports.recovery.deleteAll(u.id);
      expect(await ports.recovery.countUnused(u.id)).toBe(0);
      expect(await ports.recovery.countUnused(other.id)).toBe(1);
    });

    it('queues mail, hands it to one deliverer at a time, and records sent and failed attempts', async () => {
      const u = await ports.users.create(aNewUser());
      const id = await ports.outbox.add({ user_id: u.id, message, created_at: '2026-01-01 00:00:00' });
      const later = await ports.outbox.add({ user_id: null, message: { ...message, html: undefined }, created_at: '2026-01-01 00:05:00' });
      expect(await ports.outbox.find(id)).toEqual({
        id,
        user_id: u.id,
        message,
        status: 'pending',
        attempts: 0,
        next_attempt_at: '2026-01-01 00:00:00',
        last_error: null,
        sent_at: null,
      });
      expect((await ports.outbox.find(later))?.message).toEqual({ to: message.to, subject: message.subject, text: message.text });
      expect(await ports.outbox.due('2026-01-01 00:01:00', 10)).toEqual([id]);
      expect(await ports.outbox.due('2026-01-01 00:06:00', 1)).toEqual([id]);
      expect(await ports.outbox.claim(id, '2026-01-01 00:01:00', '2026-01-01 00:04:00')).toMatchObject({ id, attempts: 0 });
      expect(await ports.outbox.claim(id, '2026-01-01 00:02:00', '2026-01-01 00:05:00')).toBeNull();
      expect(await ports.outbox.due('2026-01-01 00:02:00', 10)).toEqual([]);
      await ports.outbox.markFailed(id, 'refused', '2026-01-01 00:10:00');
      expect(await ports.outbox.find(id)).toMatchObject({
        status: 'pending',
        attempts: 1,
        last_error: 'refused',
        next_attempt_at: '2026-01-01 00:10:00',
      });
      expect(await ports.outbox.claim(id, '2026-01-01 00:09:00', '2026-01-01 00:12:00')).toBeNull();
      expect(await ports.outbox.due('2026-01-01 00:10:00', 10)).toEqual([later, id]);
      expect(await ports.outbox.claim(id, '2026-01-01 00:10:00', '2026-01-01 00:13:00')).not.toBeNull();
      await ports.outbox.markSent(id, '2026-01-01 00:10:05');
      expect(await ports.outbox.find(id)).toMatchObject({ status: 'sent', sent_at: '2026-01-01 00:10:05', attempts: 1 });
      await ports.outbox.markFailed(later, 'gave up', null);
      expect(await ports.outbox.find(later)).toMatchObject({ status: 'failed', attempts: 1 });
      expect(await ports.outbox.due('2027-01-01 00:00:00', 10)).toEqual([]);
      await ports.outbox.deleteOfUser(u.id);
      expect(await ports.outbox.find(id)).toBeNull();
      expect(await ports.outbox.find(later)).not.toBeNull();
    });

    it('keeps only the notification switches a user changed, per user', async () => {
      const [a, b] = [await ports.users.create(aNewUser()), await ports.users.create(aNewUser())];
      expect(await ports.preferences.get(a.id)).toEqual({});
      await ports.preferences.set(a.id, { notifications_likes: false, notifications_push: true }, '2026-01-01 00:00:00');
      await ports.preferences.set(a.id, { notifications_likes: true }, '2026-01-01 00:00:01');
      await ports.preferences.set(b.id, { notifications_email: true }, '2026-01-01 00:00:00');
      expect(await ports.preferences.get(a.id)).toEqual({ notifications_likes: true, notifications_push: true });
      expect(await ports.preferences.get(b.id)).toEqual({ notifications_email: true });
      await ports.preferences.deleteOfUser(a.id);
      expect(await ports.preferences.get(a.id)).toEqual({});
    });

    it('consumes a deletion link once, and never after expiry', async () => {
      const u = await ports.users.create(aNewUser());
      await ports.deletions.create({
        user_id: u.id,
        token_hash: 'd1',
        created_at: '2026-01-01 00:00:00',
        expires_at: '2026-01-02 00:00:00',
      });
      await ports.deletions.create({
        user_id: u.id,
        token_hash: 'd2',
        created_at: '2026-01-01 00:00:00',
        expires_at: '2026-01-02 00:00:00',
      });
      expect(await ports.deletions.consume('d1', '2026-01-01 12:00:00')).toBe(u.id);
      expect(await ports.deletions.consume('d1', '2026-01-01 12:00:01')).toBeNull();
      expect(await ports.deletions.consume('d2', '2026-01-02 00:00:01')).toBeNull();
      expect(await ports.deletions.consume('zz', '2026-01-01 12:00:00')).toBeNull();
    });
  });
}

export interface AccountDataPorts {
  users: UserRepository;
  tokens: AccessTokenRepository;
  follows: FollowRepository;
  posts: PostRepository;
  reader: AccountDataReader;
  eraser: AccountEraser;
}

async function all(rows: AsyncIterable<ExportRow>): Promise<ExportRow[]> {
  const out: ExportRow[] = [];
  for await (const r of rows) out.push(r);
  return out;
}

/**
 * The export reader and the eraser read and write every context's tables: this suite runs on the SQL
 * adapters (the services' unit tests use the accounts-only fakes). The end-to-end suites cover the
 * messaging, comment and counter cases.
 */
export function accountDataContract(name: string, make: () => Promise<AccountDataPorts>) {
  describe(`${name}: account data (export and erasure) contract`, () => {
    it('reads a user’s rows section by section, in batches, and no one else’s', async () => {
      const { users, tokens, follows, posts, reader } = await make();
      const [a, b] = [await users.create(aNewUser()), await users.create(aNewUser())];
      for (let i = 0; i < 1203; i++)
        await posts.create({
          user_id: a.id,
          content: `p${i}`,
          media: i === 0 ? ['media_x1.jpg'] : [],
          media_type: null,
          tags: [],
          created_at: '2026-01-01 00:00:00',
        });
      await posts.create({ user_id: b.id, content: 'theirs', media: [], media_type: null, tags: [], created_at: '2026-01-01 00:00:00' });
      await follows.follow(a.id, b.id, '2026-01-01 00:00:00');
      await tokens.create({
        user_id: a.id,
        token_hash: 'e'.repeat(64),
        created_at: '2026-01-01 00:00:00',
        expires_at: '2027-01-01 00:00:00',
      });
      const exported = await all(reader.rows(a.id, 'posts'));
      expect(exported).toHaveLength(1203);
      expect(exported.map((p) => p.content)).toEqual(Array.from({ length: 1203 }, (_, i) => `p${i}`));
      const outbox = await all(reader.posts(a.id) as AsyncIterable<ExportRow>);
      expect(outbox).toHaveLength(1203);
      expect(outbox[0]).toEqual({
        id: exported[0].id,
        content: 'p0',
        media: ['media_x1.jpg'],
        media_type: null,
        tags: [],
        created_at: '2026-01-01 00:00:00',
        updated_at: null,
      });
      expect(await all(reader.rows(a.id, 'following'))).toEqual([
        { user_id: b.id, username: b.username, created_at: '2026-01-01 00:00:00' },
      ]);
      expect(await all(reader.rows(b.id, 'followers'))).toEqual([
        { user_id: a.id, username: a.username, created_at: '2026-01-01 00:00:00' },
      ]);
      const sessions = await all(reader.rows(a.id, 'sessions'));
      expect(sessions).toEqual([
        {
          id: expect.any(Number),
          created_at: '2026-01-01 00:00:00',
          expires_at: '2027-01-01 00:00:00',
          last_used_at: null,
          revoked_at: null,
        },
      ]);
      expect(await all(reader.media(a.id) as AsyncIterable<ExportRow>)).toEqual([
        { value: 'media_x1.jpg', kind: 'posts', source: `post:${exported[0].id}` },
      ]);
      for (const section of ['comments', 'messages', 'notifications']) expect(await all(reader.rows(b.id, section))).toEqual([]);
    });

    it('erases an account into a tombstone, once, leaving other accounts alone', async () => {
      const { users, tokens, follows, posts, eraser } = await make();
      const [a, b] = [await users.create(aNewUser()), await users.create(aNewUser())];
      await posts.create({ user_id: a.id, content: 'mine', media: [], media_type: null, tags: [], created_at: '2026-01-01 00:00:00' });
      const kept = await posts.create({
        user_id: b.id,
        content: 'theirs',
        media: [],
        media_type: null,
        tags: [],
        created_at: '2026-01-01 00:00:00',
      });
      await follows.follow(a.id, b.id, '2026-01-01 00:00:00');
      await follows.follow(b.id, a.id, '2026-01-01 00:00:00');
      await tokens.create({
        user_id: a.id,
        token_hash: 'f'.repeat(64),
        created_at: '2026-01-01 00:00:00',
        expires_at: '2027-01-01 00:00:00',
      });
      await eraser.erase(a.id, '2026-02-01 00:00:00');
      await eraser.erase(a.id, '2026-02-02 00:00:00');
      expect(await users.findWithSecrets(a.id)).toMatchObject({
        username: `deleted_${a.id}`,
        password_hash: '',
        deleted_at: '2026-02-01 00:00:00',
        bio: null,
      });
      expect(await users.findByLogin(a.username)).toBeNull();
      expect(await tokens.findActive('f'.repeat(64), '2026-02-03 00:00:00')).toBeNull();
      expect(await posts.countByUser(a.id)).toBe(0);
      expect((await posts.findById(kept.id))?.content).toBe('theirs');
      expect(await follows.isFollowing(b.id, a.id)).toBe(false);
      expect(await follows.isFollowing(a.id, b.id)).toBe(false);
      expect(await users.findById(b.id)).toMatchObject({ username: b.username, deleted_at: null });
    });
  });
}
