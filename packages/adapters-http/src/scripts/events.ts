import { pageMeta, pageRequest } from '@plaza/domain';
import { MAX_EVENT_DESCRIPTION, MAX_EVENT_LOCATION, MAX_EVENT_TITLE, type EventService } from '@plaza/domain/events';
import { z } from 'zod';
import { paginationQuery, zId, zText } from '../http/fields.js';
import { op, type Script, type Selector } from '../http/operation.js';
import type { PresenterContext } from '../presenters/context.js';
import { EventItem, presentEvent } from '../presenters/events.js';
import { PageMetaWire, zCount, zWireId } from '../presenters/wire.js';

const idQuery = z.object({ id: zId });
/** The body of a new event (create), shared with the library's `events.create` (docs/decisions/0130). */
export const newEventBody = z.object({
  title: zText(MAX_EVENT_TITLE),
  description: zText(MAX_EVENT_DESCRIPTION).nullish(),
  location: zText(MAX_EVENT_LOCATION).nullish(),
  event_date: z.string().max(32),
  image: z.string().max(512).nullish(),
});
const participation = z.object({ message: z.string(), event_id: zWireId, is_participating: z.boolean(), participants_count: zCount });

/** events.php (spec "Events and albums", Errors 5; contract §23). */
export function eventsScript(events: EventService, p: PresenterContext): Script {
  const leave = async (actor: Parameters<EventService['leave']>[0], id: number) => {
    const r = await events.leave(actor, id);
    return {
      message: r.left ? 'You left the event' : 'You were not taking part',
      event_id: id,
      is_participating: false,
      participants_count: r.participants_count,
    };
  };
  /** Leave by DELETE `?id=`: served with and without `action=leave`. */
  const leaveOp = (select?: Selector) =>
    op({
      method: 'DELETE',
      ...(select ? { select } : {}),
      auth: 'required',
      query: idQuery,
      summary: 'Leave an event',
      response: participation,
      handle: (ctx) => leave(ctx.actor, ctx.query.id),
    });
  return {
    name: 'events',
    operations: [
      op({
        method: 'GET',
        auth: 'required',
        query: z.object(paginationQuery),
        summary: 'Upcoming events (from today on), soonest first',
        response: z.object({ data: z.array(EventItem), meta: PageMetaWire }),
        handle: async (ctx) => {
          const req = pageRequest(ctx.query.page, ctx.query.per_page);
          const r = await events.upcoming(ctx.actor, req);
          return { data: r.items.map((v) => presentEvent(v, ctx.actor.userId, p)), meta: pageMeta(req, r.total) };
        },
      }),
      op({
        method: 'GET',
        select: { has: ['id'] },
        auth: 'required',
        query: idQuery,
        summary: 'An event with participants_count and is_participating',
        response: z.object({ data: EventItem }),
        handle: async (ctx) => ({ data: presentEvent(await events.details(ctx.actor, ctx.query.id), ctx.actor.userId, p) }),
      }),
      op({
        method: 'POST',
        auth: 'required',
        body: newEventBody,
        summary: 'Create an event (event_date YYYY-MM-DD HH:MM:SS, the local time where it happens); I take part',
        response: z.object({ message: z.string(), id: zWireId, event_id: zWireId, data: EventItem }),
        handle: async (ctx) => {
          const v = await events.create(ctx.actor, ctx.body);
          return { message: 'Event created', id: v.event.id, event_id: v.event.id, data: presentEvent(v, ctx.actor.userId, p) };
        },
      }),
      op({
        method: 'POST',
        select: { action: 'join' },
        auth: 'required',
        body: z.object({ event_id: zId }),
        summary: 'Take part in an event (once)',
        response: participation,
        handle: async (ctx) => {
          const r = await events.join(ctx.actor, ctx.body.event_id);
          return {
            message: r.joined ? 'You take part in the event' : 'You already take part',
            event_id: ctx.body.event_id,
            is_participating: true,
            participants_count: r.participants_count,
          };
        },
      }),
      op({
        method: 'POST',
        select: { action: 'invite' },
        auth: 'required',
        body: z.object({ event_id: zId, user_id: zId }),
        summary: 'Invite someone to an event I take part in: one event_invite notification per event and person',
        response: z.object({ message: z.string(), event_id: zWireId, user_id: zWireId, invited: z.boolean() }),
        handle: async (ctx) => {
          const r = await events.invite(ctx.actor, ctx.body.event_id, ctx.body.user_id);
          return {
            message: r.invited ? 'Invitation sent' : 'Already invited',
            event_id: ctx.body.event_id,
            user_id: ctx.body.user_id,
            invited: r.invited,
          };
        },
      }),
      leaveOp(),
      leaveOp({ action: 'leave' }),
      op({
        method: 'DELETE',
        select: { action: 'delete' },
        auth: 'required',
        query: idQuery,
        summary: 'Delete an event (its author only) with its participants and invitations',
        response: z.object({ message: z.string() }),
        handle: async (ctx) => {
          await events.delete(ctx.actor, ctx.query.id);
          return { message: 'Event deleted' };
        },
      }),
    ],
  };
}
