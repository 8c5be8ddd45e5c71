import { beforeEach, describe, expect, it } from 'vitest';
import type { AccessTokenRepository, PasswordResetRepository, UserRepository } from '../ports.js';
import { aNewUser } from './mothers.js';

export interface AccountsPorts {
  users: UserRepository;
  tokens: AccessTokenRepository;
  resets: PasswordResetRepository;
}

/** The behaviour every implementation of the account ports must share, fake or SQL. */
export function accountsContract(name: string, make: () => Promise<AccountsPorts>) {
  describe(`${name}: account ports contract`, () => {
    let ports: AccountsPorts;
    beforeEach(async () => {
      ports = await make();
    });

    it('creates a user and finds it by id, username and e-mail, case-insensitively', async () => {
      const created = await ports.users.create(aNewUser({ username: 'Alice_C', email: 'alice.c@example.test' }));
      expect(created.id).toBeTypeOf('number');
      expect(created.is_admin).toBe(false);
      expect(created.totp_enabled).toBe(false);
      expect((await ports.users.findById(created.id))?.username).toBe('Alice_C');
      expect((await ports.users.findByLogin('alice_c'))?.id).toBe(created.id);
      expect((await ports.users.findByLogin('ALICE.C@example.test'))?.id).toBe(created.id);
      expect((await ports.users.findByEmail('alice.c@EXAMPLE.test'))?.id).toBe(created.id);
      expect(await ports.users.findByLogin('nobody')).toBeNull();
      expect(await ports.users.findById(999_999)).toBeNull();
    });

    it('refuses a taken username or e-mail with its own conflict, also to creates racing each other', async () => {
      const u = await ports.users.create(aNewUser());
      await expect(ports.users.create(aNewUser({ username: u.username.toUpperCase() }))).rejects.toMatchObject({
        kind: 'conflict',
        code: 'username_taken',
      });
      await expect(ports.users.create(aNewUser({ email: u.email.toUpperCase() }))).rejects.toMatchObject({
        kind: 'conflict',
        code: 'email_taken',
      });
      const name = aNewUser().username;
      const racing = await Promise.allSettled(Array.from({ length: 5 }, () => ports.users.create(aNewUser({ username: name }))));
      expect(racing.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      expect(racing.flatMap((r) => (r.status === 'rejected' ? [(r.reason as { code: string }).code] : []))).toEqual(
        Array(4).fill('username_taken'),
      );
    });

    it('reports taken usernames and e-mails', async () => {
      const u = await ports.users.create(aNewUser());
      expect(await ports.users.taken(u.username.toUpperCase(), 'free@example.test')).toEqual({ username: true, email: false });
      expect(await ports.users.taken('free_name', u.email)).toEqual({ username: false, email: true });
    });

    it('applies partial profile updates and clears with null', async () => {
      const u = await ports.users.create(aNewUser());
      await ports.users.updateProfile(u.id, { bio: 'hello', website: 'https://x.test' });
      await ports.users.updateProfile(u.id, { website: null });
      const after = await ports.users.findById(u.id);
      expect(after?.bio).toBe('hello');
      expect(after?.website).toBeNull();
    });

    it('changes the e-mail address, refusing one another account uses', async () => {
      const u = await ports.users.create(aNewUser());
      const other = await ports.users.create(aNewUser());
      await ports.users.updateEmail(u.id, 'new.address@example.test');
      expect((await ports.users.findByEmail('NEW.address@example.test'))?.id).toBe(u.id);
      await expect(ports.users.updateEmail(u.id, other.email.toUpperCase())).rejects.toMatchObject({
        kind: 'conflict',
        code: 'email_taken',
      });
      expect((await ports.users.findById(u.id))?.email).toBe('new.address@example.test');
    });

    it('hands accounts out without their secrets, except to the readers named for them', async () => {
      const u = await ports.users.create(aNewUser({ password_hash: 'hash-of-the-password' }));
      await ports.users.setTwoFactor(u.id, 'TOTPSECRET', true);
      const secrets = ['password_hash', 'totp_secret', 'totp_last_step'];
      for (const user of [
        u,
        await ports.users.findById(u.id),
        await ports.users.findByLogin(u.username),
        await ports.users.findByEmail(u.email),
        ...(await ports.users.findByIds([u.id])),
      ]) {
        expect(Object.keys(user!).filter((k) => secrets.includes(k))).toEqual([]);
      }
      expect(await ports.users.findWithSecrets(u.id)).toMatchObject({
        id: u.id,
        password_hash: 'hash-of-the-password',
        totp_secret: 'TOTPSECRET',
      });
      expect(await ports.users.findByLoginWithSecrets(u.email)).toMatchObject({
        id: u.id,
        password_hash: 'hash-of-the-password',
        totp_secret: 'TOTPSECRET',
      });
    });

    it('stores two-factor settings, admin flag and password hash', async () => {
      const u = await ports.users.create(aNewUser());
      await ports.users.setTwoFactor(u.id, 'SECRET', true);
      await ports.users.setAdmin(u.id, true);
      await ports.users.updatePasswordHash(u.id, 'new-hash');
      const after = await ports.users.findWithSecrets(u.id);
      expect(after).toMatchObject({ totp_secret: 'SECRET', totp_enabled: true, is_admin: true, password_hash: 'new-hash' });
      expect((await ports.users.findByIds([u.id, 999_999])).map((x) => x.id)).toEqual([u.id]);
    });

    it('moves two-factor through pending, enabled and off with conditional writes', async () => {
      const u = await ports.users.create(aNewUser());
      expect(await ports.users.enableTotp(u.id, 'S1')).toBe(false);
      expect(await ports.users.setPendingTotpSecret(u.id, 'S1')).toBe(true);
      expect(await ports.users.setPendingTotpSecret(u.id, 'S2')).toBe(false);
      expect(await ports.users.enableTotp(u.id, 'S2')).toBe(false);
      expect(await ports.users.enableTotp(u.id, 'S1')).toBe(true);
      expect(await ports.users.enableTotp(u.id, 'S1')).toBe(false);
      expect(await ports.users.findWithSecrets(u.id)).toMatchObject({ totp_secret: 'S1', totp_enabled: true });
      expect(await ports.users.advanceTotpStep(u.id, 100)).toBe(true);
      expect(await ports.users.advanceTotpStep(u.id, 100)).toBe(false);
      expect(await ports.users.advanceTotpStep(u.id, 99)).toBe(false);
      expect(await ports.users.advanceTotpStep(u.id, 101)).toBe(true);
      expect(await ports.users.disableTotp(u.id)).toBe(true);
      expect(await ports.users.disableTotp(u.id)).toBe(false);
      expect(await ports.users.findWithSecrets(u.id)).toMatchObject({ totp_secret: null, totp_enabled: false });
    });

    it('replaces a password hash only if it is still the expected one, and stores the privacy flags', async () => {
      const u = await ports.users.create(aNewUser({ password_hash: 'h0' }));
      expect(await ports.users.replacePasswordHash(u.id, 'other', 'h1')).toBe(false);
      expect(await ports.users.replacePasswordHash(u.id, 'h0', 'h1')).toBe(true);
      expect(await ports.users.replacePasswordHash(u.id, 'h0', 'h2')).toBe(false);
      expect((await ports.users.findWithSecrets(u.id))?.password_hash).toBe('h1');
      expect(u).toMatchObject({ is_private: false, show_online_status: true, read_receipts: true, allow_messages: true, deleted_at: null });
      await ports.users.setPrivacy(u.id, { is_private: true, read_receipts: false });
      await ports.users.setPrivacy(u.id, { allow_messages: false, show_online_status: false });
      expect(await ports.users.findById(u.id)).toMatchObject({
        is_private: true,
        show_online_status: false,
        read_receipts: false,
        allow_messages: false,
      });
    });

    it('revokes every other token of a user, keeping one', async () => {
      const u = await ports.users.create(aNewUser());
      const other = await ports.users.create(aNewUser());
      const keep = await ports.tokens.create({
        user_id: u.id,
        token_hash: 'k'.repeat(64),
        created_at: '2026-01-01 00:00:00',
        expires_at: '2027-01-01 00:00:00',
      });
      await ports.tokens.create({
        user_id: u.id,
        token_hash: 'l'.repeat(64),
        created_at: '2026-01-01 00:00:00',
        expires_at: '2027-01-01 00:00:00',
      });
      await ports.tokens.create({
        user_id: other.id,
        token_hash: 'm'.repeat(64),
        created_at: '2026-01-01 00:00:00',
        expires_at: '2027-01-01 00:00:00',
      });
      expect(await ports.tokens.revokeOthers(u.id, keep, '2026-01-02 00:00:00')).toBe(1);
      expect(await ports.tokens.revokeOthers(u.id, keep, '2026-01-02 00:00:00')).toBe(0);
      expect(await ports.tokens.findActive('k'.repeat(64), '2026-01-03 00:00:00')).not.toBeNull();
      expect(await ports.tokens.findActive('l'.repeat(64), '2026-01-03 00:00:00')).toBeNull();
      expect(await ports.tokens.findActive('m'.repeat(64), '2026-01-03 00:00:00')).not.toBeNull();
    });

    it('records when a user was last active, for that user only', async () => {
      const u = await ports.users.create(aNewUser());
      const other = await ports.users.create(aNewUser());
      expect(u.last_active_at).toBeNull();
      await ports.users.touchLastActive(u.id, '2026-01-05 08:00:00');
      expect((await ports.users.findById(u.id))?.last_active_at).toBe('2026-01-05 08:00:00');
      await ports.users.touchLastActive(u.id, '2026-01-06 09:30:00');
      expect((await ports.users.findByLogin(u.username))?.last_active_at).toBe('2026-01-06 09:30:00');
      expect((await ports.users.findById(other.id))?.last_active_at).toBeNull();
    });

    it('finds only active tokens: not expired, not revoked', async () => {
      const u = await ports.users.create(aNewUser());
      const id = await ports.tokens.create({
        user_id: u.id,
        token_hash: 'a'.repeat(64),
        created_at: '2026-01-01 00:00:00',
        expires_at: '2026-02-01 00:00:00',
      });
      const active = await ports.tokens.findActive('a'.repeat(64), '2026-01-15 00:00:00');
      expect(active).toMatchObject({ id, user_id: u.id, expires_at: '2026-02-01 00:00:00', last_used_at: null });
      expect(active?.user).toMatchObject({ id: u.id, username: u.username, is_admin: false });
      expect(await ports.tokens.findActive('a'.repeat(64), '2026-02-01 00:00:01')).toBeNull();
      await ports.tokens.touch(id, '2026-01-02 00:00:00');
      expect((await ports.tokens.findActive('a'.repeat(64), '2026-01-15 00:00:00'))?.last_used_at).toBe('2026-01-02 00:00:00');
      await ports.tokens.revoke(id, '2026-01-03 00:00:00');
      expect(await ports.tokens.findActive('a'.repeat(64), '2026-01-15 00:00:00')).toBeNull();
    });

    it("finds a session by the same rule, with the account's name, roles and public card", async () => {
      const u = await ports.users.create(aNewUser());
      await ports.users.updateProfile(u.id, { avatar: 'me.png', militant_badge: 'gold' });
      await ports.users.setPrivacy(u.id, { is_private: true });
      const id = await ports.tokens.create({
        user_id: u.id,
        token_hash: 'w'.repeat(64),
        created_at: '2026-01-01 00:00:00',
        expires_at: '2026-02-01 00:00:00',
      });
      const session = await ports.tokens.findSession('w'.repeat(64), '2026-01-15 00:00:00');
      expect(session).toMatchObject({
        id,
        expires_at: '2026-02-01 00:00:00',
        last_used_at: null,
        user: {
          id: u.id,
          username: u.username,
          is_admin: false,
          is_moderator: false,
          is_technician: false,
          avatar: 'me.png',
          militant_badge: 'gold',
          is_private: true,
        },
      });
      // Whether a ban is in force is known only where bans are kept (SQL): never a ban that is not there.
      expect(session?.banned).not.toBe(true);
      await ports.tokens.touch(id, '2026-01-02 00:00:00');
      expect((await ports.tokens.findSession('w'.repeat(64), '2026-01-15 00:00:00'))?.last_used_at).toBe('2026-01-02 00:00:00');
      expect(await ports.tokens.findSession('w'.repeat(64), '2026-02-01 00:00:01')).toBeNull();
      await ports.tokens.revoke(id, '2026-01-03 00:00:00');
      expect(await ports.tokens.findSession('w'.repeat(64), '2026-01-15 00:00:00')).toBeNull();
    });

    it("lists a user's live tokens newest first, without revoked, expired or other users' ones", async () => {
      const u = await ports.users.create(aNewUser());
      const other = await ports.users.create(aNewUser());
      const t = (hash: string, user: number, expires: string) =>
        ports.tokens.create({ user_id: user, token_hash: hash.repeat(64), created_at: '2026-01-01 00:00:00', expires_at: expires });
      const first = await t('p', u.id, '2027-01-01 00:00:00');
      const second = await t('q', u.id, '2027-01-01 00:00:00');
      const revoked = await t('r', u.id, '2027-01-01 00:00:00');
      await t('s', u.id, '2026-01-02 00:00:00');
      await t('t', other.id, '2027-01-01 00:00:00');
      await ports.tokens.revoke(revoked, '2026-01-02 00:00:00');
      await ports.tokens.touch(first, '2026-01-03 00:00:00');
      expect(await ports.tokens.listActiveOfUser(u.id, '2026-01-05 00:00:00')).toEqual([
        { id: second, user_id: u.id, created_at: '2026-01-01 00:00:00', expires_at: '2027-01-01 00:00:00', last_used_at: null },
        {
          id: first,
          user_id: u.id,
          created_at: '2026-01-01 00:00:00',
          expires_at: '2027-01-01 00:00:00',
          last_used_at: '2026-01-03 00:00:00',
        },
      ]);
    });

    it('revokes every token of a user at once', async () => {
      const u = await ports.users.create(aNewUser());
      await ports.tokens.create({
        user_id: u.id,
        token_hash: 'b'.repeat(64),
        created_at: '2026-01-01 00:00:00',
        expires_at: '2027-01-01 00:00:00',
      });
      await ports.tokens.create({
        user_id: u.id,
        token_hash: 'c'.repeat(64),
        created_at: '2026-01-01 00:00:00',
        expires_at: '2027-01-01 00:00:00',
      });
      await ports.tokens.revokeAllOfUser(u.id, '2026-01-02 00:00:00');
      expect(await ports.tokens.findActive('b'.repeat(64), '2026-01-03 00:00:00')).toBeNull();
      expect(await ports.tokens.findActive('c'.repeat(64), '2026-01-03 00:00:00')).toBeNull();
    });

    it('consumes a password reset once, and never after expiry', async () => {
      const u = await ports.users.create(aNewUser());
      await ports.resets.create({ user_id: u.id, token_hash: 'r1', created_at: '2026-01-01 00:00:00', expires_at: '2026-01-01 01:00:00' });
      await ports.resets.create({ user_id: u.id, token_hash: 'r2', created_at: '2026-01-01 00:00:00', expires_at: '2026-01-01 01:00:00' });
      expect(await ports.resets.consume('r1', '2026-01-01 00:30:00')).toBe(u.id);
      expect(await ports.resets.consume('r1', '2026-01-01 00:31:00')).toBeNull();
      expect(await ports.resets.consume('r2', '2026-01-01 01:00:01')).toBeNull();
      expect(await ports.resets.consume('unknown', '2026-01-01 00:30:00')).toBeNull();
    });
  });
}
