import { type PageRequest, offsetOf } from '@plaza/domain';
import type { Viewer } from '@plaza/domain/content';
import type { NotificationInbox } from '@plaza/domain/notifications';
import type { Kysely } from 'kysely';
import { postVisibleTo } from '../content/post-visibility.js';
import { groupContentVisibleTo } from '../groups/group-visibility.js';
import { GROUP_MEMBERSHIP_NOTIFICATIONS } from '@plaza/domain/groups';
import type { Database } from '../database.js';
import { toNotificationRecord } from './sql-notification-repository.js';

export class SqlNotificationInbox implements NotificationInbox {
  constructor(private readonly db: Kysely<Database>) {}

  /** The reader's notifications, without those that link a post, or a group's content, the reader may not see. */
  private readable(reader: Viewer) {
    return (
      this.db
        .selectFrom('notifications')
        .where('user_id', '=', reader.userId)
        .where((eb) => eb.or([eb('post_id', 'is', null), postVisibleTo(reader, eb.ref('post_id'))]))
        // About a community group's content: only while the reader may see it (membership notices stay).
        .where((eb) =>
          eb.or([
            eb('group_id', 'is', null),
            eb('type', 'in', [...GROUP_MEMBERSHIP_NOTIFICATIONS]),
            groupContentVisibleTo(reader.userId, eb.ref('group_id')),
          ]),
        )
    );
  }

  async list(reader: Viewer, page: PageRequest, unreadOnly: boolean) {
    let q = this.readable(reader)
      .selectAll('notifications')
      // The linked community group's name, by its primary key, in the same query.
      .select((eb) =>
        eb.selectFrom('community_groups as g').select('g.name').whereRef('g.id', '=', 'notifications.group_id').as('group_name'),
      );
    if (unreadOnly) q = q.where('is_read', '=', 0);
    const rows = await q
      .orderBy('id', 'desc')
      .limit(page.perPage + 1)
      .offset(offsetOf(page))
      .execute();
    return rows.map(({ group_name, ...row }) => ({ ...toNotificationRecord(row), group_name: group_name ?? null }));
  }

  async countUnread(reader: Viewer) {
    const row = await this.readable(reader)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('is_read', '=', 0)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async markRead(userId: number, id: number) {
    const exists = await this.db
      .selectFrom('notifications')
      .select('id')
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    if (!exists) return false;
    await this.db.updateTable('notifications').set({ is_read: 1 }).where('id', '=', id).where('user_id', '=', userId).execute();
    return true;
  }

  async markAllRead(userId: number) {
    const result = await this.db
      .updateTable('notifications')
      .set({ is_read: 1 })
      .where('user_id', '=', userId)
      .where('is_read', '=', 0)
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }
}
