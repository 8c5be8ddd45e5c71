import type { SuspensionRecord, SuspensionRepository } from '@plaza/domain/moderation';
import type { Kysely } from 'kysely';
import type { Database } from '../database.js';
import { insertIfAbsent } from '../dialect.js';

export class SqlSuspensionRepository implements SuspensionRepository {
  constructor(private readonly db: Kysely<Database>) {}

  suspend(suspension: SuspensionRecord): Promise<boolean> {
    // The primary key is the account: a second suspension is refused by the database, whatever the caller's lock.
    return insertIfAbsent(this.db, 'user_suspensions', { ...suspension });
  }

  async lift(userId: number): Promise<SuspensionRecord | null> {
    const found = await this.find(userId);
    if (!found) return null;
    const result = await this.db.deleteFrom('user_suspensions').where('user_id', '=', userId).executeTakeFirst();
    return Number(result.numDeletedRows) === 1 ? found : null;
  }

  async find(userId: number): Promise<SuspensionRecord | null> {
    const row = await this.db.selectFrom('user_suspensions').selectAll().where('user_id', '=', userId).executeTakeFirst();
    return row ?? null;
  }

  async suspendedAmong(userIds: number[]): Promise<Set<number>> {
    if (userIds.length === 0) return new Set();
    const rows = await this.db
      .selectFrom('user_suspensions')
      .select('user_id')
      .where('user_id', 'in', [...new Set(userIds)])
      .execute();
    return new Set(rows.map((r) => r.user_id));
  }
}
