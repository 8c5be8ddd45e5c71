import { token } from '../shared/token.js';
import type { UserRepository } from '../accounts/ports.js';
import type { UserRecord } from '../accounts/user.js';
import type { Actor } from '../shared/actor.js';
import { NotFound } from '../shared/errors.js';
import { pageRequest, type PageRequest } from '../shared/pagination.js';
import type { NotificationRecord } from './notification.js';
import type { NotificationService } from './notification-service.js';

/** Reading side of a user's notifications: what notifications.php lists, counts and marks read. */
export interface NotificationInbox {
  /** Newest first; `perPage + 1` at most so the caller knows whether more exist. */
  list(userId: number, page: PageRequest, unreadOnly: boolean): Promise<NotificationRecord[]>;
  countUnread(userId: number): Promise<number>;
  /** Marks one of the user's notifications read; false when the user has no such notification. */
  markRead(userId: number, id: number): Promise<boolean>;
  /** Marks every notification of the user read; returns how many changed. */
  markAllRead(userId: number): Promise<number>;
}
export const NotificationInbox = token<NotificationInbox>('NotificationInbox');

export interface NotificationView {
  notification: NotificationRecord;
  from: Pick<UserRecord, 'id' | 'username' | 'avatar'> | null;
}

export class NotificationInboxService {
  constructor(
    private readonly inbox: NotificationInbox,
    private readonly users: UserRepository,
    private readonly notifications: NotificationService,
  ) {}

  async list(actor: Actor, options: { page?: number; perPage?: number; unreadOnly?: boolean }) {
    const req = pageRequest(options.page, options.perPage);
    const rows = await this.inbox.list(actor.userId, req, options.unreadOnly ?? false);
    const items = rows.slice(0, req.perPage);
    const fromIds = [...new Set(items.map((n) => n.from_user_id).filter((id): id is number => id !== null))];
    const users = new Map((fromIds.length ? await this.users.findByIds(fromIds) : []).map((u) => [u.id, u]));
    const views: NotificationView[] = items.map((n) => ({ notification: n, from: n.from_user_id !== null ? (users.get(n.from_user_id) ?? null) : null }));
    return { items: views, page: req.page, per_page: req.perPage, has_more: rows.length > req.perPage };
  }

  countUnread(actor: Actor): Promise<number> {
    return this.inbox.countUnread(actor.userId);
  }

  async markRead(actor: Actor, id: number): Promise<void> {
    if (!(await this.inbox.markRead(actor.userId, id))) throw new NotFound('Notification not found', 'notification_not_found');
  }

  markAllRead(actor: Actor): Promise<number> {
    return this.inbox.markAllRead(actor.userId);
  }

  /** Sends a test notification to the actor's own devices through the push port, and stores it. */
  async test(actor: Actor, provider?: string) {
    const text = 'Test notification';
    return this.notifications.raise(
      { user_id: actor.userId, from_user_id: null, type: 'test', content: provider ? `${text} (${provider})` : text },
      { title: 'Plaza', body: text },
    );
  }
}
