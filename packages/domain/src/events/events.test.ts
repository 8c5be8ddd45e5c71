import { describe, expect, it } from 'vitest';
import { InMemoryUserRepository } from '../accounts/testing/in-memory-accounts.js';
import { aNewUser } from '../accounts/testing/mothers.js';
import { InMemoryUploads } from '../media/testing/in-memory-uploads.js';
import { NotificationService } from '../notifications/notification-service.js';
import { InMemoryNotificationRepository, RecordingPushSender } from '../notifications/testing/in-memory-notifications.js';
import type { Actor } from '../shared/actor.js';
import { ManualClock } from '../shared/clock.js';
import { Forbidden, Invalid, NotFound } from '../shared/errors.js';
import { InMemoryUnitOfWork } from '../shared/testing/index.js';
import { EventService, parseEventDate } from './event-service.js';
import { InMemoryEventRepository } from './testing/in-memory-events.js';

function setup() {
  const users = new InMemoryUserRepository();
  const repo = new InMemoryEventRepository();
  const notes = new InMemoryNotificationRepository();
  const clock = new ManualClock('2026-05-01T15:00:00Z');
  const uow = new InMemoryUnitOfWork(users, repo, notes);
  const events = new EventService(
    repo,
    users,
    new NotificationService(notes, new RecordingPushSender(), clock),
    clock,
    uow,
    new InMemoryUploads().references,
  );
  const actor = async (): Promise<Actor> => {
    const u = await users.create(aNewUser());
    return { userId: u.id, username: u.username, isAdmin: false, isModerator: true, isTechnician: false };
  };
  return { repo, notes, events, actor };
}

describe('EventService on the fakes', () => {
  it('reads event dates as wall times, refusing impossible ones', () => {
    expect(parseEventDate('2026-05-01 10:00')).toBe('2026-05-01 10:00:00');
    expect(parseEventDate('2026-05-01T10:00:30')).toBe('2026-05-01 10:00:30');
    for (const bad of ['2026-02-29 10:00', '2026-05-01 24:00', '2026-13-01 10:00', 'soon', '2026-05-01'])
      expect(parseEventDate(bad)).toBeNull();
  });

  it('lists from the start of today, soonest first; Errors 5: only the author deletes', async () => {
    const { events, actor } = setup();
    const [author, other] = [await actor(), await actor()];
    const today = await events.create(author, { title: 'Today early', event_date: '2026-05-01 08:00' });
    const later = await events.create(author, { title: 'Later', event_date: '2026-06-01 08:00' });
    await events.create(author, { title: 'Yesterday', event_date: '2026-04-30 23:59' });
    expect((await events.upcoming(other, { page: 1, perPage: 20 })).items.map((v) => v.event.id)).toEqual([today.event.id, later.event.id]);
    await expect(events.create(author, { title: ' ', event_date: '2026-06-01 08:00' })).rejects.toBeInstanceOf(Invalid);
    await events.join(other, later.event.id);
    // A moderator who is not the author is refused too.
    await expect(events.delete(other, later.event.id)).rejects.toBeInstanceOf(Forbidden);
    await events.delete(author, later.event.id);
    await expect(events.details(other, later.event.id)).rejects.toBeInstanceOf(NotFound);
  });

  it('invites once per person, participants only', async () => {
    const { events, notes, actor } = setup();
    const [author, guest, stranger] = [await actor(), await actor(), await actor()];
    const e = await events.create(author, { title: 'Fête', event_date: '2026-06-01 20:00' });
    await expect(events.invite(stranger, e.event.id, guest.userId)).rejects.toBeInstanceOf(Forbidden);
    expect(await events.invite(author, e.event.id, guest.userId)).toEqual({ invited: true });
    expect(await events.invite(author, e.event.id, guest.userId)).toEqual({ invited: false });
    expect(notes.rows.filter((n) => n.user_id === guest.userId && n.type === 'event_invite')).toEqual([
      expect.objectContaining({ from_user_id: author.userId, link: `event_detail.php?id=${e.event.id}` }),
    ]);
  });
});
