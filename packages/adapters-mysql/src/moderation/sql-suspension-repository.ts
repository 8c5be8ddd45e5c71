import type { AuthChangePublisher } from '@plaza/domain/accounts';
import type { SuspensionRecord, SuspensionRepository } from '@plaza/domain/moderation';
import type { Kysely } from 'kysely';
import type { Database } from '../database.js';
import { insertIfAbsent } from '../dialect.js';

export class SqlSuspensionRepository implements SuspensionRepository {
  constructor(
    private readonly db: Kysely<Database>,
    /** Told of every change an account's sessions show (docs/decisions/0150). */
    private readonly sessions?: AuthChangePublisher,
  ) {}

  async suspend(suspension: SuspensionRecord): Promise<boolean> {
    // The primary key is the account: a second suspension is refused by the database, whatever the caller's lock.
    const suspended = await insertIfAbsent(this.db, 'user_suspensions', { ...suspension });
    if (suspended) await this.sessions?.publish(suspension.user_id);
    return suspended;
  }

  async lift(userId: number): Promise<SuspensionRecord | null> {
    const found = await this.find(userId);
    if (!found) return null;
    const result = await this.db.deleteFrom('user_suspensions').where('user_id', '=', userId).executeTakeFirst();
    if (Number(result.numDeletedRows) !== 1) return null;
    await this.sessions?.publish(userId);
    return found;
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
