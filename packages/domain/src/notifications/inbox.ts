import { token } from '../shared/token.js';
import type { UserRepository } from '../accounts/ports.js';
import type { UserRecord } from '../accounts/user.js';
import { type Viewer, viewerOf } from '../content/visibility.js';
import type { Actor } from '../shared/actor.js';
import { NotFound, Unavailable } from '../shared/errors.js';
import { PUSH_PROVIDERS, type PushProviderName } from './push-delivery.js';
import { listPage, pageRequest, type PageRequest } from '../shared/pagination.js';
import type { NotificationRecord } from './notification.js';
import type { NotificationService } from './notification-service.js';

/**
 * Reading side of a user's notifications: what notifications.php lists, counts and marks read. Lists
 * and counts leave out the notifications that link a post the reader may not see (now: the rule is
 * applied when reading, like every list of posts), so a notification never reveals a hidden post.
 */
export type InboxEntry = NotificationRecord & { group_name: string | null };

export interface NotificationInbox {
  /**
   * The reader's notifications, newest first; `perPage + 1` at most so the caller knows whether more
   * exist. Each with the name of the community group it links (contract §17 `group_name`), read in the
   * same query: a page costs the same whatever it holds.
   */
  list(reader: Viewer, page: PageRequest, unreadOnly: boolean): Promise<InboxEntry[]>;
  countUnread(reader: Viewer): Promise<number>;
  /** Marks one of the user's notifications read; false when the user has no such notification. */
  markRead(userId: number, id: number): Promise<boolean>;
  /** Marks every notification of the user read; returns how many changed. */
  markAllRead(userId: number): Promise<number>;
}
export const NotificationInbox = token<NotificationInbox>('NotificationInbox');

export interface NotificationView {
  notification: NotificationRecord;
  from: Pick<UserRecord, 'id' | 'username' | 'avatar'> | null;
  /** The name of the community group `group_id` names (contract §17 `group_name`), if it still exists. */
  group_name: string | null;
}

export class NotificationInboxService {
  constructor(
    private readonly inbox: NotificationInbox,
    private readonly users: UserRepository,
    private readonly notifications: NotificationService,
    /** The push providers configured, for the test push; without it the test goes to whatever transport there is. */
    private readonly pushProviders?: () => PushProviderName[],
  ) {}

  async list(actor: Actor, options: { page?: number; perPage?: number; unreadOnly?: boolean }) {
    const req = pageRequest(options.page, options.perPage);
    const rows = await this.inbox.list(viewerOf(actor), req, options.unreadOnly ?? false);
    const { items, ...paging } = listPage(rows, req);
    const fromIds = [...new Set(items.map((n) => n.from_user_id).filter((id): id is number => id !== null))];
    const users = new Map((fromIds.length ? await this.users.findByIds(fromIds) : []).map((u) => [u.id, u]));
    const views: NotificationView[] = items.map(({ group_name, ...n }) => ({
      notification: n,
      from: n.from_user_id !== null ? (users.get(n.from_user_id) ?? null) : null,
      group_name,
    }));
    return { ...paging, items: views };
  }

  countUnread(actor: Actor): Promise<number> {
    return this.inbox.countUnread(viewerOf(actor));
  }

  async markRead(actor: Actor, id: number): Promise<void> {
    if (!(await this.inbox.markRead(actor.userId, id))) throw new NotFound('Notification not found', 'notification_not_found');
  }

  markAllRead(actor: Actor): Promise<number> {
    return this.inbox.markAllRead(actor.userId);
  }

  /**
   * Sends a test notification to the actor's own devices and stores it: through `provider` (`ntfy`,
   * `onesignal`, `both`), every configured provider when absent, none with `none`. Naming only
   * providers that are not configured, while others are, is refused (503) rather than silently
   * sending nothing.
   */
  async test(actor: Actor, provider?: string) {
    const text = 'Test notification';
    const wanted: PushProviderName[] | null =
      provider === 'both'
        ? [...PUSH_PROVIDERS]
        : provider === 'ntfy' || provider === 'onesignal'
          ? [provider]
          : provider === 'none'
            ? []
            : null;
    if (wanted && wanted.length && this.pushProviders) {
      const configured = this.pushProviders();
      const missing = wanted.filter((p) => !configured.includes(p));
      // With no provider at all, pushes go to the log (a development setup): nothing to refuse.
      if (configured.length && missing.length === wanted.length)
        throw new Unavailable(`No ${missing.join(' or ')} push provider is configured`, 'push_provider_unavailable');
    }
    const input = { user_id: actor.userId, from_user_id: null, type: 'test' as const, content: provider ? `${text} (${provider})` : text };
    if (wanted && wanted.length === 0) return this.notifications.raise(input);
    return this.notifications.raise(input, { title: 'Plaza', body: text, ...(wanted ? { providers: wanted } : {}) });
  }
}
