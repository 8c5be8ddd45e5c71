import { Invalid } from '@plaza/domain';
import type { NotificationInboxService } from '@plaza/domain/notifications';
import { z } from 'zod';
import { paginationQuery, zFlag, zId } from '../http/fields.js';
import { op, type Script } from '../http/operation.js';
import type { PresenterContext } from '../presenters/context.js';
import { NotificationItem, presentNotification } from '../presenters/notification.js';
import { ListPagination, presentPagination, zCount, zWireId } from '../presenters/wire.js';

/** The unread counter the client shows (contract §17), beside every answer that may change it. */
const UnreadCount = z.object({ unread_count: zCount });
const Marked = UnreadCount.extend({ message: z.string() });

/** Also the library's check (docs/decisions/0113). */
export const listQuery = z.object({ unread: zFlag.optional(), ...paginationQuery });
export const markBody = z.object({ mark_all: zFlag.optional(), id: zId.optional() });
export const testBody = z.object({ provider: z.enum(['ntfy', 'onesignal', 'both', 'none']).optional() });

export function notificationsScript(inbox: NotificationInboxService, p: PresenterContext): Script {
  return {
    name: 'notifications',
    operations: [
      op({
        method: 'GET',
        select: { action: 'count' },
        auth: 'required',
        summary: 'Number of unread notifications',
        response: UnreadCount,
        handle: async (ctx) => ({ unread_count: await inbox.countUnread(ctx.actor) }),
      }),
      op({
        method: 'GET',
        auth: 'required',
        query: listQuery,
        summary: 'Notifications, newest first (unread=true for unread only)',
        response: UnreadCount.extend({ notifications: z.array(NotificationItem), pagination: ListPagination }),
        handle: async (ctx) => {
          const page = await inbox.list(ctx.actor, {
            page: ctx.query.page,
            perPage: ctx.query.per_page,
            unreadOnly: ctx.query.unread ?? false,
          });
          const notifications = page.items.map((item) => presentNotification(item, p));
          return {
            notifications,
            unread_count: await inbox.countUnread(ctx.actor),
            pagination: presentPagination(page),
          };
        },
      }),
      op({
        method: 'PUT',
        select: { has: ['id'] },
        auth: 'required',
        query: z.object({ id: zId }),
        summary: 'Mark one notification read',
        response: Marked,
        handle: async (ctx) => {
          await inbox.markRead(ctx.actor, ctx.query.id);
          return { message: 'Notification marked as read', unread_count: await inbox.countUnread(ctx.actor) };
        },
      }),
      op({
        method: 'PUT',
        auth: 'required',
        body: markBody,
        summary: 'Mark all notifications read ({mark_all: true}) or one ({id})',
        response: Marked,
        handle: async (ctx) => {
          if (ctx.body.id !== undefined) await inbox.markRead(ctx.actor, ctx.body.id);
          else if (ctx.body.mark_all) await inbox.markAllRead(ctx.actor);
          else throw new Invalid('Send mark_all: true or an id', 'invalid_input', [{ field: 'mark_all', problem: 'required' }]);
          return { message: 'Notifications marked as read', unread_count: await inbox.countUnread(ctx.actor) };
        },
      }),
      op({
        method: 'POST',
        select: { action: 'test' },
        auth: 'required',
        body: testBody,
        summary: 'Send a test push notification to own devices',
        response: z.object({ message: z.string(), notification_id: zWireId.nullable() }),
        handle: async (ctx) => {
          const n = await inbox.test(ctx.actor, ctx.body.provider);
          return { message: 'Test notification sent', notification_id: n?.id ?? null };
        },
      }),
    ],
  };
}
