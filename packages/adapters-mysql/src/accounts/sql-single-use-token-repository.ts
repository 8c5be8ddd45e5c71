import type { Timestamp } from '@plaza/domain';
import type { SingleUseTokenRepository } from '@plaza/domain/accounts';
import type { Kysely } from 'kysely';
import type { Database } from '../database.js';

/** The tables of e-mailed single-use secrets; they share one shape. */
type SingleUseTokenTable = 'password_resets' | 'account_deletion_requests' | 'email_confirmations';

/** Single-use tokens stored as hashes: password resets, deletion and e-mail confirmations alike. */
export class SqlSingleUseTokenRepository implements SingleUseTokenRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly table: SingleUseTokenTable,
  ) {}

  async create(token: { user_id: number; token_hash: string; created_at: Timestamp; expires_at: Timestamp }) {
    await this.db.insertInto(this.table).values(token).execute();
  }

  async consume(tokenHash: string, now: Timestamp) {
    const row = await this.db
      .selectFrom(this.table)
      .select(['id', 'user_id'])
      .where('token_hash', '=', tokenHash)
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    if (!row) return null;
    // Single-use under concurrency: only the caller whose conditional update changes the row gets it.
    const result = await this.db
      .updateTable(this.table)
      .set({ used_at: now })
      .where('id', '=', row.id)
      .where('used_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1 ? row.user_id : null;
  }
}

export class SqlPasswordResetRepository extends SqlSingleUseTokenRepository {
  constructor(db: Kysely<Database>) {
    super(db, 'password_resets');
  }
}

export class SqlDeletionRequestRepository extends SqlSingleUseTokenRepository {
  constructor(db: Kysely<Database>) {
    super(db, 'account_deletion_requests');
  }
}
