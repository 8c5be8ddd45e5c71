import { describe, expect, it } from 'vitest';
import type { UserRepository } from '../../accounts/ports.js';
import { aNewUser } from '../../accounts/testing/mothers.js';
import type { NewEvent } from '../model.js';
import type { EventRepository } from '../ports.js';

export interface EventsPorts {
  users: UserRepository;
  events: EventRepository;
}

export function aNewEvent(creatorId: number, overrides: Partial<NewEvent> = {}): NewEvent {
  return {
    creator_id: creatorId,
    title: 'Assemblée',
    description: 'd',
    location: 'Lyon',
    event_date: '2030-01-01 18:00:00',
    image: null,
    created_at: '2026-01-01 00:00:00',
    ...overrides,
  };
}

/** Events, participants and invitations: the same in memory and on SQL. */
export function eventsContract(name: string, make: () => Promise<EventsPorts>) {
  describe(`${name}: events`, () => {
    it('creates with the organiser taking part, lists upcoming soonest first, joins and leaves once', async () => {
      const { users, events } = await make();
      const [a, b] = [await users.create(aNewUser()), await users.create(aNewUser())];
      // Far in the future, so that other tests' events sort before these.
      const later = await events.create(aNewEvent(a.id, { event_date: '2999-02-01 10:00:00' }));
      const sooner = await events.create(aNewEvent(a.id, { event_date: '2999-01-01 10:00:00', image: 'uploads/events/event_x1.jpg' }));
      await events.create(aNewEvent(a.id, { event_date: '2998-12-31 23:59:59' }));
      expect(sooner).toEqual({
        ...aNewEvent(a.id, { event_date: '2999-01-01 10:00:00', image: 'uploads/events/event_x1.jpg' }),
        id: expect.any(Number),
        participants_count: 1,
      });
      expect(await events.findById(sooner.id)).toEqual(sooner);
      expect(await events.findById(sooner.id + 1000)).toBeNull();
      const first = await events.upcoming('2999-01-01 00:00:00', { page: 1, perPage: 1 });
      expect(first).toEqual({ items: [sooner], total: 2 });
      expect((await events.upcoming('2999-01-01 00:00:00', { page: 2, perPage: 1 })).items.map((e) => e.id)).toEqual([later.id]);
      expect(await events.participatingIn(a.id, [sooner.id, later.id])).toEqual(new Set([sooner.id, later.id]));
      await events.lock(sooner.id);
      expect(await events.join(sooner.id, b.id, '2026-01-02 00:00:00')).toBe(true);
      expect(await events.join(sooner.id, b.id, '2026-01-02 00:00:00')).toBe(false);
      expect((await events.findById(sooner.id))!.participants_count).toBe(2);
      expect(await events.participatingIn(b.id, [sooner.id, later.id])).toEqual(new Set([sooner.id]));
      expect(await events.leave(sooner.id, b.id)).toBe(true);
      expect(await events.leave(sooner.id, b.id)).toBe(false);
      expect((await events.findById(sooner.id))!.participants_count).toBe(1);
    });

    it('records an invitation once, and deletes an event with its participants and invitations', async () => {
      const { users, events } = await make();
      const [a, b, c] = [await users.create(aNewUser()), await users.create(aNewUser()), await users.create(aNewUser())];
      const e = await events.create(aNewEvent(a.id));
      expect(await events.invite(e.id, b.id, a.id, '2026-01-02 00:00:00')).toBe(true);
      expect(await events.invite(e.id, b.id, a.id, '2026-01-02 00:00:00')).toBe(false);
      expect(await events.invite(e.id, c.id, a.id, '2026-01-02 00:00:00')).toBe(true);
      await events.join(e.id, b.id, '2026-01-02 00:00:00');
      await events.delete(e.id);
      expect(await events.findById(e.id)).toBeNull();
      expect(await events.participatingIn(b.id, [e.id])).toEqual(new Set());
      // Recreated ids never meet old rows: a fresh event invites b again.
      const again = await events.create(aNewEvent(a.id));
      expect(await events.invite(again.id, b.id, a.id, '2026-01-03 00:00:00')).toBe(true);
    });
  });
}
