import { describe, expect, it } from 'vitest';
import type { UserRepository } from '../../accounts/ports.js';
import type { NotificationRepository } from '../ports.js';
import { aNewUser } from '../../shared/testing/mothers.js';

export function notificationRepositoryContract(
  name: string,
  make: () => Promise<{ users: UserRepository; notifications: NotificationRepository }>,
) {
  describe(`${name}: notification repository contract`, () => {
    it('stores a notification unread, with its optional fields', async () => {
      const { users, notifications } = await make();
      const a = await users.create(aNewUser());
      const b = await users.create(aNewUser());
      const n = await notifications.create({ user_id: a.id, from_user_id: b.id, type: 'follow', created_at: '2026-01-01 00:00:00' });
      expect(n).toMatchObject({ user_id: a.id, from_user_id: b.id, type: 'follow', is_read: false, post_id: null, content: null });
      expect(n.id).toBeTypeOf('number');
    });
  });
}
