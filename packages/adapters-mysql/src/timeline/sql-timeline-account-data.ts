import type { AccountDataPart, ExportRow } from '@plaza/domain/accounts';
import type { Kysely } from 'kysely';
import { ownedRows } from '../batches.js';
import type { Database } from '../database.js';

/**
 * The home timeline's share of a user's data: the entries of their own timeline (exported as what
 * their feed holds: post, wall owner, date).
 * The timeline is derived from walls and follows, so erasing it loses nothing of anyone's.
 */
export class SqlTimelineAccountData implements AccountDataPart {
  readonly sections = ['home_timeline'] as const;

  constructor(private readonly db: Kysely<Database>) {}

  rows(userId: number): AsyncIterable<ExportRow> {
    return ownedRows(this.db, 'home_timeline', 'user_id', userId, ['entry_id', 'post_id', 'owner_id', 'is_share', 'created_at'], {
      key: 'entry_id',
    });
  }

  async *media() {}

  async erase(userId: number): Promise<void> {
    await this.db.deleteFrom('home_timeline').where('user_id', '=', userId).execute();
    await this.db.deleteFrom('home_timeline_state').where('user_id', '=', userId).execute();
    // Their posts and shares in others' timelines go with their wall entries, which the content
    // part removes (foreign key `entry_id`, on delete cascade).
  }
}
