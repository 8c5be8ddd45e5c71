import type { AccountDataPart } from '@plaza/domain/accounts';
import type { Kysely } from 'kysely';
import { mapped, ownedRows } from '../batches.js';
import type { Database } from '../database.js';

/** The notifications context's share of a user's data: notifications received, and pushes not yet sent. */
export class SqlNotificationsAccountData implements AccountDataPart {
  readonly sections = ['notifications'] as const;

  constructor(private readonly db: Kysely<Database>) {}

  rows(userId: number) {
    return mapped(ownedRows(this.db, 'notifications', 'user_id', userId, 'all'), (n) => ({ ...n, is_read: Boolean(n.is_read) }));
  }

  async *media() {}

  /** Both ways: what the user received, and what others received about the user's actions. */
  async erase(userId: number): Promise<void> {
    await this.db
      .deleteFrom('notifications')
      .where((eb) => eb.or([eb('user_id', '=', userId), eb('from_user_id', '=', userId)]))
      .execute();
    await this.db.deleteFrom('push_outbox').where('user_id', '=', userId).execute();
  }
}
