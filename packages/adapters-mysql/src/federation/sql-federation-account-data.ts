import type { Timestamp } from '@plaza/domain';
import type { AccountDataPart, ExportRow, StoredMedia } from '@plaza/domain/accounts';
import type { Kysely } from 'kysely';
import { BATCH } from '../batches.js';
import type { Database } from '../database.js';
import './schema-follow-requests.js';
import './schema-outbound-interactions.js';

/**
 * The federation context's share of a user's data (docs/decisions/0090): the remote accounts that
 * follow the user and those the user follows are exported; the key pair is erased but never exported
 * (the private key does not leave the server). Remote posts are a cache shared by every follower of
 * their author, nobody's data: they stay.
 */
export class SqlFederationAccountData implements AccountDataPart {
  readonly sections = ['fediverse_followers', 'fediverse_following'] as const;

  constructor(private readonly db: Kysely<Database>) {}

  async *rows(userId: number, section: string): AsyncGenerator<ExportRow> {
    const table = section === 'fediverse_followers' ? 'remote_followers' : 'remote_following';
    let after = '';
    for (;;) {
      const rows = await this.db
        .selectFrom(table)
        .select(['actor_url', 'followed_at'])
        .where('user_id', '=', userId)
        .where('actor_url', '>', after)
        .orderBy('actor_url')
        .limit(BATCH)
        .execute();
      for (const r of rows) yield { actor_url: r.actor_url, followed_at: r.followed_at };
      if (rows.length < BATCH) return;
      after = rows[rows.length - 1].actor_url;
    }
  }

  async *media(_userId: number): AsyncGenerator<StoredMedia> {
    return;
  }

  async erase(userId: number, _at: Timestamp): Promise<void> {
    await this.db.deleteFrom('remote_followers').where('user_id', '=', userId).execute();
    await this.db.deleteFrom('remote_following').where('user_id', '=', userId).execute();
    await this.db.deleteFrom('remote_follow_requests').where('user_id', '=', userId).execute();
    await this.db.deleteFrom('outbound_remote_reactions').where('user_id', '=', userId).execute();
    await this.db.deleteFrom('outbound_remote_replies').where('user_id', '=', userId).execute();
    await this.db.deleteFrom('federation_keys').where('user_id', '=', userId).execute();
  }
}
