import type { Timestamp } from '@plaza/domain';
import type { PasswordResetRepository } from '@plaza/domain/accounts';
import type { Kysely } from 'kysely';
import type { Database } from '../database.js';

export class SqlPasswordResetRepository implements PasswordResetRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async create(reset: { user_id: number; token_hash: string; created_at: Timestamp; expires_at: Timestamp }) {
    await this.db.insertInto('password_resets').values(reset).execute();
  }

  async consume(tokenHash: string, now: Timestamp) {
    const row = await this.db
      .selectFrom('password_resets')
      .select(['id', 'user_id'])
      .where('token_hash', '=', tokenHash)
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    if (!row) return null;
    // The conditional update is what makes the token single-use under concurrency: only one caller
    // changes the row.
    const result = await this.db
      .updateTable('password_resets')
      .set({ used_at: now })
      .where('id', '=', row.id)
      .where('used_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1 ? row.user_id : null;
  }
}
