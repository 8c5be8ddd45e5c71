import { type PageRequest, offsetOf } from '@plaza/domain';
import type { NotificationInbox } from '@plaza/domain/notifications';
import type { Kysely } from 'kysely';
import type { Database } from '../database.js';
import { toNotificationRecord } from './sql-notification-repository.js';

export class SqlNotificationInbox implements NotificationInbox {
  constructor(private readonly db: Kysely<Database>) {}

  async list(userId: number, page: PageRequest, unreadOnly: boolean) {
    let q = this.db.selectFrom('notifications').selectAll().where('user_id', '=', userId);
    if (unreadOnly) q = q.where('is_read', '=', 0);
    const rows = await q.orderBy('id', 'desc').limit(page.perPage + 1).offset(offsetOf(page)).execute();
    return rows.map(toNotificationRecord);
  }

  async countUnread(userId: number) {
    const row = await this.db
      .selectFrom('notifications')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('user_id', '=', userId)
      .where('is_read', '=', 0)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async markRead(userId: number, id: number) {
    const exists = await this.db.selectFrom('notifications').select('id').where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
    if (!exists) return false;
    await this.db.updateTable('notifications').set({ is_read: 1 }).where('id', '=', id).where('user_id', '=', userId).execute();
    return true;
  }

  async markAllRead(userId: number) {
    const result = await this.db.updateTable('notifications').set({ is_read: 1 }).where('user_id', '=', userId).where('is_read', '=', 0).executeTakeFirst();
    return Number(result.numUpdatedRows);
  }
}
