import { beforeEach, describe, expect, it } from 'vitest';
import { pageRequest } from '../../shared/pagination.js';
import type { UserRepository } from '../ports.js';
import type { AccountHoldRepository, EmailConfirmationRepository, InvitationRepository } from '../registration-ports.js';
import { aNewUser } from './mothers.js';

export interface RegistrationPorts {
  users: UserRepository;
  holds: AccountHoldRepository;
  invitations: InvitationRepository;
  confirmations: EmailConfirmationRepository;
  /** Marks an account deleted (its tombstone), as the eraser would. */
  markDeleted(userId: number): Promise<void>;
}

const NOW = '2026-11-27 12:00:00';

/** The behaviour every implementation of registration's ports must share, fake or SQL (docs/decisions/0104). */
export function registrationContract(name: string, make: () => Promise<RegistrationPorts>) {
  describe(`${name}: registration ports contract`, () => {
    let ports: RegistrationPorts;
    beforeEach(async () => {
      ports = await make();
    });

    it('keeps a hold until nothing is awaited, and ends each wait once', async () => {
      const { holds, users } = ports;
      const u = await users.create(aNewUser());
      expect(await holds.find(u.id)).toBeNull();
      await holds.create({ user_id: u.id, awaiting_approval: true, awaiting_email: true, created_at: NOW });
      expect(await holds.find(u.id)).toEqual({ user_id: u.id, awaiting_approval: true, awaiting_email: true, created_at: NOW });
      expect(await holds.clearEmail(u.id)).toBe(true);
      expect(await holds.clearEmail(u.id)).toBe(false);
      expect(await holds.find(u.id)).toMatchObject({ awaiting_approval: true, awaiting_email: false });
      expect(await holds.clearApproval(u.id)).toBe(true);
      expect(await holds.find(u.id)).toBeNull();
      expect(await holds.clearApproval(u.id)).toBe(false);
      expect(await holds.clearApproval(999_999)).toBe(false);
    });

    it('lists live accounts awaiting approval, oldest first, with whether their address is confirmed', async () => {
      const { holds, users } = ports;
      const [a, b, c, d] = [
        await users.create(aNewUser({ cause: 'Parks' })),
        await users.create(aNewUser()),
        await users.create(aNewUser()),
        await users.create(aNewUser()),
      ];
      await holds.create({ user_id: b.id, awaiting_approval: true, awaiting_email: true, created_at: '2026-11-27 10:00:00' });
      await holds.create({ user_id: a.id, awaiting_approval: true, awaiting_email: false, created_at: '2026-11-27 11:00:00' });
      await holds.create({ user_id: c.id, awaiting_approval: false, awaiting_email: true, created_at: '2026-11-27 09:00:00' });
      await holds.create({ user_id: d.id, awaiting_approval: true, awaiting_email: false, created_at: '2026-11-27 08:00:00' });
      await ports.markDeleted(d.id);
      const page = await holds.awaitingApproval(pageRequest(1, 1));
      expect(page.items).toEqual([
        { user_id: b.id, username: b.username, email: b.email, cause: null, email_confirmed: false, created_at: '2026-11-27 10:00:00' },
      ]);
      expect(page.has_more).toBe(true);
      const next = await holds.awaitingApproval(pageRequest(2, 1));
      expect(next.items).toEqual([
        { user_id: a.id, username: a.username, email: a.email, cause: 'Parks', email_confirmed: true, created_at: '2026-11-27 11:00:00' },
      ]);
      expect(next.has_more).toBe(false);
      expect(await holds.clearApproval(b.id)).toBe(true);
      expect((await holds.awaitingApproval(pageRequest(1, 10))).items.map((i) => i.user_id)).toEqual([a.id]);
    });

    it('counts an invitation’s uses up to its maximum, never after its expiry or revocation', async () => {
      const { invitations, users } = ports;
      const admin = await users.create(aNewUser());
      const created = await invitations.create({
        code_hash: 'a'.repeat(64),
        code_hint: 'abcd',
        max_uses: 2,
        expires_at: '2026-11-28 00:00:00',
        created_by: admin.id,
        created_at: NOW,
      });
      expect(created).toEqual({
        id: expect.any(Number),
        code_hint: 'abcd',
        max_uses: 2,
        uses: 0,
        expires_at: '2026-11-28 00:00:00',
        revoked_at: null,
        created_by: admin.id,
        created_at: NOW,
      });
      expect(await invitations.use('a'.repeat(64), NOW)).toBe(true);
      expect(await invitations.use('a'.repeat(64), '2026-11-28 00:00:00')).toBe(false);
      expect(await invitations.use('a'.repeat(64), NOW)).toBe(true);
      expect(await invitations.use('a'.repeat(64), NOW)).toBe(false);
      expect(await invitations.findByHash('a'.repeat(64))).toMatchObject({ id: created.id, uses: 2 });
      expect(await invitations.use('b'.repeat(64), NOW)).toBe(false);
      expect(await invitations.findByHash('b'.repeat(64))).toBeNull();

      const forever = await invitations.create({
        code_hash: 'c'.repeat(64),
        code_hint: 'cccc',
        max_uses: 5,
        expires_at: null,
        created_by: admin.id,
        created_at: NOW,
      });
      expect(await invitations.use('c'.repeat(64), '2099-01-01 00:00:00')).toBe(true);
      expect(await invitations.revoke(forever.id, NOW)).toBe(true);
      expect(await invitations.revoke(forever.id, NOW)).toBe(false);
      expect(await invitations.use('c'.repeat(64), NOW)).toBe(false);
      expect(await invitations.findByHash('c'.repeat(64))).toMatchObject({ revoked_at: NOW, uses: 1 });
      const list = await invitations.list(pageRequest(1, 1));
      expect(list.items.map((i) => i.id)).toEqual([forever.id]);
      expect(list.has_more).toBe(true);
      expect(list.items[0]).not.toHaveProperty('code_hash');
    });

    it('admits one of many uses racing for the last one', async () => {
      const { invitations, users } = ports;
      const admin = await users.create(aNewUser());
      await invitations.create({
        code_hash: 'd'.repeat(64),
        code_hint: 'dddd',
        max_uses: 1,
        expires_at: null,
        created_by: admin.id,
        created_at: NOW,
      });
      const results = await Promise.all(Array.from({ length: 10 }, () => invitations.use('d'.repeat(64), NOW)));
      expect(results.filter(Boolean)).toHaveLength(1);
    });

    it('consumes a confirmation link once, before its expiry', async () => {
      const { confirmations, users } = ports;
      const u = await users.create(aNewUser());
      await confirmations.create({ user_id: u.id, token_hash: 'e'.repeat(64), created_at: NOW, expires_at: '2026-11-28 12:00:00' });
      await confirmations.create({ user_id: u.id, token_hash: 'f'.repeat(64), created_at: NOW, expires_at: '2026-11-28 12:00:00' });
      expect(await confirmations.consume('e'.repeat(64), '2026-11-28 12:00:00')).toBeNull();
      expect(await confirmations.consume('e'.repeat(64), NOW)).toBe(u.id);
      expect(await confirmations.consume('e'.repeat(64), NOW)).toBeNull();
      expect(await confirmations.consume('f'.repeat(64), NOW)).toBe(u.id);
      expect(await confirmations.lastSentAt(u.id)).toBe(NOW);
      await confirmations.create({
        user_id: u.id,
        token_hash: '9'.repeat(64),
        created_at: '2026-11-27 12:05:00',
        expires_at: '2026-11-28 12:05:00',
      });
      expect(await confirmations.lastSentAt(u.id)).toBe('2026-11-27 12:05:00');
      expect(await confirmations.lastSentAt(999_999)).toBeNull();
    });
  });
}
