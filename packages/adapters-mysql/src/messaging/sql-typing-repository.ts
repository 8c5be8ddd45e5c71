import type { Timestamp } from '@plaza/domain';
import type { TypingRepository, TypingTarget } from '@plaza/domain/messaging';
import type { Kysely } from 'kysely';
import { insertOrUpdate, type SqlDialect } from '../dialect.js';
import type { Database } from '../database.js';

export class SqlTypingRepository implements TypingRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: SqlDialect,
  ) {}

  async set(userId: number, target: TypingTarget, targetId: number, expiresAt: Timestamp) {
    // One upsert: two requests of the same user racing both end with a fresh expiry, and no error.
    await insertOrUpdate(
      this.db,
      this.dialect,
      'typing_indicators',
      [{ user_id: userId, target_type: target, target_id: targetId, expires_at: expiresAt }],
      ['user_id', 'target_type', 'target_id'],
      {
        expires_at: expiresAt,
      },
    );
  }

  async clear(userId: number, target: TypingTarget, targetId: number) {
    await this.db
      .deleteFrom('typing_indicators')
      .where('user_id', '=', userId)
      .where('target_type', '=', target)
      .where('target_id', '=', targetId)
      .execute();
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
