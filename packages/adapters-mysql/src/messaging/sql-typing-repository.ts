import type { Timestamp } from '@plaza/domain';
import type { TypingRepository, TypingTarget } from '@plaza/domain/messaging';
import type { Kysely } from 'kysely';
import { insertIfAbsent } from '../dialect.js';
import type { Database } from '../database.js';

export class SqlTypingRepository implements TypingRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async set(userId: number, target: TypingTarget, targetId: number, expiresAt: Timestamp) {
    // Insert, or refresh the expiry of the row already there: safe when two requests of the same user race.
    if (await insertIfAbsent(this.db, 'typing_indicators', { user_id: userId, target_type: target, target_id: targetId, expires_at: expiresAt })) return;
    await this.db
      .updateTable('typing_indicators')
      .set({ expires_at: expiresAt })
      .where('user_id', '=', userId)
      .where('target_type', '=', target)
      .where('target_id', '=', targetId)
      .execute();
  }

  async clear(userId: number, target: TypingTarget, targetId: number) {
    await this.db.deleteFrom('typing_indicators').where('user_id', '=', userId).where('target_type', '=', target).where('target_id', '=', targetId).execute();
  }

  async active(target: TypingTarget, targetId: number, now: Timestamp) {
    const rows = await this.db
      .selectFrom('typing_indicators')
      .select('user_id')
      .where('target_type', '=', target)
      .where('target_id', '=', targetId)
      .where('expires_at', '>', now)
      .orderBy('user_id')
      .execute();
    return rows.map((r) => Number(r.user_id));
  }

  async purge(now: Timestamp) {
    await this.db.deleteFrom('typing_indicators').where('expires_at', '<=', now).execute();
  }
}
