import { describe, expect, it } from 'vitest';
import type { UserRepository } from '../../accounts/ports.js';
import { aNewUser } from '../../shared/testing/mothers.js';
import type { PushOutbox } from '../push-delivery.js';

export function pushOutboxContract(name: string, make: () => Promise<{ users: UserRepository; outbox: PushOutbox }>) {
  describe(`${name}: push outbox contract`, () => {
    it('keeps failed pushes with their message until removed, due ones oldest first', async () => {
      const { users, outbox } = await make();
      const u = await users.create(aNewUser());
      const message = { title: 'Ada', body: 'hé 👋', data: { type: 'message', sender_id: '3', message_preview: 'hé 👋' } };
      const entry = {
        user_id: u.id,
        provider: 'ntfy' as const,
        message,
        attempts: 1,
        last_error: 'HTTP 502',
        created_at: '2026-03-01 10:00:00',
      };
      const late = await outbox.add({ ...entry, next_attempt_at: '2026-03-01 10:05:00' });
      const early = await outbox.add({ ...entry, provider: 'onesignal', next_attempt_at: '2026-03-01 10:00:30' });
      const due = await outbox.due('2026-03-01 10:10:00', 10);
      expect(due.map((e) => e.id).filter((id) => id === late || id === early)).toEqual([early, late]);
      expect(due.find((e) => e.id === late)).toEqual({ ...entry, id: late, next_attempt_at: '2026-03-01 10:05:00' });
      expect((await outbox.due('2026-03-01 10:01:00', 10)).map((e) => e.id)).toContain(early);
      expect((await outbox.due('2026-03-01 10:01:00', 10)).map((e) => e.id)).not.toContain(late);
      expect((await outbox.due('2026-03-01 10:10:00', 1)).length).toBe(1);
      await outbox.remove(early);
      expect((await outbox.due('2026-03-01 10:10:00', 10)).map((e) => e.id)).not.toContain(early);
    });

    it('lets one worker claim an entry, then reschedules it', async () => {
      const { users, outbox } = await make();
      const u = await users.create(aNewUser());
      const id = await outbox.add({
        user_id: u.id,
        provider: 'ntfy',
        message: { title: 't', body: 'b', data: {} },
        attempts: 1,
        next_attempt_at: '2026-03-01 10:00:30',
        last_error: 'x',
        created_at: '2026-03-01 10:00:00',
      });
      expect(await outbox.claim(id, '2026-03-01 10:00:30', '2026-03-01 10:03:00')).toBe(true);
      expect(await outbox.claim(id, '2026-03-01 10:00:30', '2026-03-01 10:03:00')).toBe(false);
      await outbox.reschedule(id, 2, '2026-03-01 10:02:00', 'timeout');
      const [row] = (await outbox.due('2026-03-01 10:02:00', 100)).filter((e) => e.id === id);
      expect(row).toMatchObject({ attempts: 2, next_attempt_at: '2026-03-01 10:02:00', last_error: 'timeout' });
      // find reads one entry whatever its due time (the BullMQ lane's worker, docs/decisions/0215).
      expect(await outbox.find(id)).toMatchObject({ id, attempts: 2, provider: 'ntfy' });
      await outbox.remove(id);
      expect(await outbox.find(id)).toBeNull();
    });
  });
}
