import type { Timestamp } from '@plaza/domain';
import type { NewNotification, NotificationRecord, NotificationRepository } from '@plaza/domain/notifications';
import type { Kysely, Selectable } from 'kysely';
import { insertedId } from '../dialect.js';
import type { Database } from '../database.js';
import type { NotificationsTable } from './schema.js';

export function toNotificationRecord(row: Selectable<NotificationsTable>): NotificationRecord {
  return { ...row, is_read: Boolean(row.is_read) };
}

export class SqlNotificationRepository implements NotificationRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async create(n: NewNotification & { created_at: Timestamp }) {
    const values = {
      user_id: n.user_id,
      from_user_id: n.from_user_id,
      type: n.type,
      content: n.content ?? null,
      post_id: n.post_id ?? null,
      comment_id: n.comment_id ?? null,
      group_id: n.group_id ?? null,
      reaction_type: n.reaction_type ?? null,
      link: n.link ?? null,
      created_at: n.created_at,
    };
    const id = insertedId(await this.db.insertInto('notifications').values(values).executeTakeFirstOrThrow());
    return { id, ...values, is_read: false };
  }
}
