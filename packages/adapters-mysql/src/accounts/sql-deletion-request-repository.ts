import type { Timestamp } from '@plaza/domain';
import type { DeletionRequestRepository } from '@plaza/domain/accounts';
import type { Kysely } from 'kysely';
import type { Database } from '../database.js';

export class SqlDeletionRequestRepository implements DeletionRequestRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async create(request: { user_id: number; token_hash: string; created_at: Timestamp; expires_at: Timestamp }) {
    await this.db.insertInto('account_deletion_requests').values(request).execute();
  }

  async consume(tokenHash: string, now: Timestamp) {
    const row = await this.db
      .selectFrom('account_deletion_requests')
      .select(['id', 'user_id'])
      .where('token_hash', '=', tokenHash)
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    if (!row) return null;
    // Single-use under concurrency: only the caller whose conditional update changes the row gets it.
    const result = await this.db
      .updateTable('account_deletion_requests')
      .set({ used_at: now })
      .where('id', '=', row.id)
      .where('used_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1 ? row.user_id : null;
  }
}
