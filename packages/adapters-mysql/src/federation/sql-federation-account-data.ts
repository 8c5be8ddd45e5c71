import type { Timestamp } from '@plaza/domain';
import type { AccountDataPart, ExportRow, StoredMedia } from '@plaza/domain/accounts';
import type { Kysely } from 'kysely';
import { BATCH, keyset } from '../batches.js';
import type { Database } from '../database.js';
import './schema-follow-requests.js';
import './schema-outbound-interactions.js';

/**
 * The federation context's share of a user's data (docs/decisions/0090): the remote accounts that
 * follow the user and those the user follows are exported, and so are the user's reactions and
 * replies to remote posts (docs/decisions/0246); the key pair is erased but never exported (the
 * private key does not leave the server). Remote posts are a cache shared by every follower of their
 * author, nobody's data: they stay.
 */
export class SqlFederationAccountData implements AccountDataPart {
  readonly sections = ['fediverse_followers', 'fediverse_following', 'fediverse_reactions', 'fediverse_replies'] as const;

  constructor(private readonly db: Kysely<Database>) {}

  rows(userId: number, section: string): AsyncIterable<ExportRow> {
    if (section === 'fediverse_reactions') return this.reactions(userId);
    if (section === 'fediverse_replies') return this.replies(userId);
    return this.follows(userId, section === 'fediverse_followers' ? 'remote_followers' : 'remote_following');
  }

  /** The user's reactions to remote posts (docs/decisions/0245), by the Note's URL. */
  private async *reactions(userId: number): AsyncGenerator<ExportRow> {
    let after = '';
    for (;;) {
      const rows = await this.db
        .selectFrom('outbound_remote_reactions')
        .select(['object_id as object_url', 'actor_url', 'reaction_type', 'reacted_at'])
        .where('user_id', '=', userId)
        .where('object_id', '>', after)
        .orderBy('object_id')
        .limit(BATCH)
        .execute();
      yield* rows;
      if (rows.length < BATCH) return;
      after = rows[rows.length - 1].object_url;
    }
  }

  /** The user's replies to remote posts, with the visibility reply_remote answered. */
  private replies(userId: number): AsyncIterable<ExportRow> {
    return keyset(
      async (after) =>
        (
          await this.db
            .selectFrom('outbound_remote_replies')
            .select(['id', 'object_id', 'actor_url', 'content', 'audience', 'created_at', 'updated_at'])
            .where('user_id', '=', userId)
            .where('id', '>', after)
            .orderBy('id')
            .limit(BATCH)
            .execute()
        ).map(({ object_id, audience, ...r }) => ({
          ...r,
          object_url: object_id,
          visibility: audience === 'public' ? 'public' : 'direct',
        })),
      (r) => r.id,
    );
  }

  private async *follows(userId: number, table: 'remote_followers' | 'remote_following'): AsyncGenerator<ExportRow> {
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
