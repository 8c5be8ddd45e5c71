import type { AccountDataPart, StoredMedia } from '@plaza/domain/accounts';
import type { Kysely } from 'kysely';
import { ownedRows } from '../batches.js';
import type { Database } from '../database.js';

/** The accounts context's share of a user's data: sessions, secrets, preferences and mail; the avatar and banner. */
export class SqlAccountsAccountData implements AccountDataPart {
  readonly sections = ['sessions'] as const;

  constructor(private readonly db: Kysely<Database>) {}

  rows(userId: number) {
    // Never the token hash: a session is listed by when it was created, used, and ended.
    return ownedRows(this.db, 'access_tokens', 'user_id', userId, ['id', 'created_at', 'expires_at', 'last_used_at', 'revoked_at']);
  }

  async *media(userId: number): AsyncGenerator<StoredMedia> {
    const user = await this.db.selectFrom('users').select(['avatar', 'banner']).where('id', '=', userId).executeTakeFirst();
    for (const [source, value] of [
      ['avatar', user?.avatar],
      ['banner', user?.banner],
    ] as const) {
      if (value) yield { value, kind: 'avatar', source };
    }
  }

  /** The account row itself becomes the tombstone afterwards (SqlAccountEraser). */
  async erase(userId: number): Promise<void> {
    for (const table of [
      'access_tokens',
      'password_resets',
      'two_factor_recovery_codes',
      'user_preferences',
      'account_deletion_requests',
      'mail_outbox',
    ] as const) {
      await this.db.deleteFrom(table).where('user_id', '=', userId).execute();
    }
  }
}
