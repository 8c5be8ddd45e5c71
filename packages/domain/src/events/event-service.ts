import type { UserRepository } from '../accounts/ports.js';
import type { UserRecord } from '../accounts/user.js';
import type { MediaReferences } from '../media/references.js';
import type { NotificationService } from '../notifications/notification-service.js';
import type { Actor } from '../shared/actor.js';
import type { Clock } from '../shared/clock.js';
import { Forbidden, Invalid, NotFound } from '../shared/errors.js';
import type { PageRequest } from '../shared/pagination.js';
import { toTimestamp } from '../shared/time.js';
import type { UnitOfWork } from '../shared/unit-of-work.js';
import { MAX_EVENT_DESCRIPTION, MAX_EVENT_LOCATION, MAX_EVENT_TITLE, type EventRecord } from './model.js';
import type { EventRepository, Paged } from './ports.js';

export interface EventView {
  event: EventRecord;
  creator: UserRecord | null;
  is_participating: boolean;
}

export interface EventInput {
  title: string;
  description?: string | null;
  location?: string | null;
  event_date: string;
  image?: string | null;
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})(?::(\d{2}))?$/;

/** `YYYY-MM-DD HH:MM[:SS]` (or with a `T`) as `YYYY-MM-DD HH:MM:SS`; null for anything else or a day that does not exist. */
export function parseEventDate(raw: string): string | null {
  const m = DATE.exec(raw.trim());
  if (!m) return null;
  const [, y, mo, d, h, mi, s = '00'] = m;
  const date = new Date(Date.UTC(+y, +mo - 1, +d, +h, +mi, +s));
  if (date.getUTCFullYear() !== +y || date.getUTCMonth() !== +mo - 1 || date.getUTCDate() !== +d || +h > 23 || +mi > 59 || +s > 59)
    return null;
  return `${y}-${mo}-${d} ${h}:${mi}:${s}`;
}

/** Events (events.php, contract §23; docs/decisions/0037). Every event is public. */
export class EventService {
  constructor(
    private readonly events: EventRepository,
    private readonly users: UserRepository,
    private readonly notifications: NotificationService,
    private readonly clock: Clock,
    private readonly uow: UnitOfWork,
    private readonly media: MediaReferences,
  ) {}

  /** Events from the start of the current (UTC) day on, soonest first: event dates are local wall times. */
  async upcoming(actor: Actor, req: PageRequest): Promise<Paged<EventView>> {
    const from = `${toTimestamp(this.clock.now()).slice(0, 10)} 00:00:00`;
    const found = await this.events.upcoming(from, req);
    return { total: found.total, items: await this.views(actor, found.items) };
  }

  async details(actor: Actor, id: number): Promise<EventView> {
    const event = await this.events.findById(id);
    if (!event) throw new NotFound('Event not found', 'event_not_found');
    return (await this.views(actor, [event]))[0];
  }

  /** The organiser takes part in their event from the start. */
  async create(actor: Actor, input: EventInput): Promise<EventView> {
    const title = input.title.trim();
    if (!title) throw Invalid.field('title', 'must not be empty');
    if (title.length > MAX_EVENT_TITLE) throw Invalid.field('title', `must be at most ${MAX_EVENT_TITLE} characters`);
    const description = (input.description ?? '').trim();
    if (description.length > MAX_EVENT_DESCRIPTION)
      throw Invalid.field('description', `must be at most ${MAX_EVENT_DESCRIPTION} characters`);
    const location = (input.location ?? '').trim();
    if (location.length > MAX_EVENT_LOCATION) throw Invalid.field('location', `must be at most ${MAX_EVENT_LOCATION} characters`);
    const eventDate = parseEventDate(input.event_date);
    if (!eventDate) throw Invalid.field('event_date', 'must be a date and time, YYYY-MM-DD HH:MM:SS', 'invalid_date');
    const image = await this.media.optional(actor, 'image', input.image, ['event']);
    const event = await this.events.create({
      creator_id: actor.userId,
      title,
      description,
      location,
      event_date: eventDate,
      image: image === null ? null : `uploads/events/${image.split('/').pop()}`,
      created_at: toTimestamp(this.clock.now()),
    });
    return (await this.views(actor, [event]))[0];
  }

  async join(actor: Actor, id: number): Promise<{ joined: boolean; participants_count: number }> {
    await this.details(actor, id);
    const joined = await this.events.join(id, actor.userId, toTimestamp(this.clock.now()));
    return { joined, participants_count: (await this.events.findById(id))?.participants_count ?? 0 };
  }

  async leave(actor: Actor, id: number): Promise<{ left: boolean; participants_count: number }> {
    await this.details(actor, id);
    const left = await this.events.leave(id, actor.userId);
    return { left, participants_count: (await this.events.findById(id))?.participants_count ?? 0 };
  }

  /** Spec Errors 5: only the author deletes an event; it goes with its participants and invitations. */
  async delete(actor: Actor, id: number): Promise<void> {
    await this.uow.run(async () => {
      await this.events.lock(id);
      const event = await this.events.findById(id);
      if (!event) throw new NotFound('Event not found', 'event_not_found');
      if (event.creator_id !== actor.userId) throw new Forbidden('Only the author of the event can delete it', 'not_event_author');
      await this.events.delete(id);
    });
  }

  /**
   * A participant (the organiser included) invites someone: one `event_invite` notification per
   * event and invitee, however often and however concurrently it is asked.
   */
  async invite(actor: Actor, eventId: number, userId: number): Promise<{ invited: boolean }> {
    const event = await this.events.findById(eventId);
    if (!event) throw new NotFound('Event not found', 'event_not_found');
    if (!(await this.events.participatingIn(actor.userId, [eventId])).has(eventId))
      throw new Forbidden('Only participants can invite to an event', 'not_participant');
    const invitee = await this.users.findById(userId);
    if (!invitee || invitee.deleted_at) throw new NotFound('User not found', 'user_not_found');
    if (userId === actor.userId) throw Invalid.field('user_id', 'cannot be yourself');
    return this.uow.run(async () => {
      const invited = await this.events.invite(eventId, userId, actor.userId, toTimestamp(this.clock.now()));
      if (invited) {
        const text = `${actor.username} invited you to ${event.title}`;
        await this.notifications.raise(
          { user_id: userId, from_user_id: actor.userId, type: 'event_invite', content: text, link: `event_detail.php?id=${eventId}` },
          { title: 'Event', body: text },
        );
      }
      return { invited };
    });
  }

  private async views(actor: Actor, events: EventRecord[]): Promise<EventView[]> {
    const [creators, mine] = await Promise.all([
      this.users.findByIds([...new Set(events.map((e) => e.creator_id))]),
      this.events.participatingIn(
        actor.userId,
        events.map((e) => e.id),
      ),
    ]);
    const byId = new Map(creators.map((u) => [u.id, u]));
    return events.map((event) => ({ event, creator: byId.get(event.creator_id) ?? null, is_participating: mine.has(event.id) }));
  }
}
