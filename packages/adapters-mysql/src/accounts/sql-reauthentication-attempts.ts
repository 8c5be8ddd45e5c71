import type { Timestamp } from '@plaza/domain';
import type { ReauthenticationAttempts } from '@plaza/domain/accounts';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../database.js';
import { insertIfAbsent } from '../dialect.js';

/** The account's row is created once, at its first attempt; the count is changed by conditional updates only. */
export class SqlReauthenticationAttempts implements ReauthenticationAttempts {
  constructor(private readonly db: Kysely<Database>) {}

  async claim(userId: number, now: Timestamp, windowStart: Timestamp, limit: number) {
    // An old time makes the first attempt's update start the count over.
    await insertIfAbsent(this.db, 'reauthentication_attempts', { user_id: userId, attempts: 0, last_attempt_at: '1970-01-01 00:00:00' });
    // One statement reads and writes the count, so concurrent attempts never pass the limit. The
    // count's expression reads last_attempt_at before it is set: MySQL applies the assignments in
    // order (later ones see earlier results), SQLite reads the old row, and both agree in this order.
    const result = await this.db
      .updateTable('reauthentication_attempts')
      .set({
        attempts: sql<number>`case when last_attempt_at <= ${windowStart} then 1 else attempts + 1 end`,
        last_attempt_at: now,
      })
      .where('user_id', '=', userId)
      .where((eb) => eb.or([eb('attempts', '<', limit), eb('last_attempt_at', '<=', windowStart)]))
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async lockedSince(userId: number, windowStart: Timestamp, limit: number) {
    const row = await this.db
      .selectFrom('reauthentication_attempts')
      .select('last_attempt_at')
      .where('user_id', '=', userId)
      .where('attempts', '>=', limit)
      .where('last_attempt_at', '>', windowStart)
      .executeTakeFirst();
    return row?.last_attempt_at ?? null;
  }

  async clear(userId: number) {
    await this.db.deleteFrom('reauthentication_attempts').where('user_id', '=', userId).execute();
  }
}
