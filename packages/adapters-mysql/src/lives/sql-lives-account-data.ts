import type { AccountDataPart, ExportRow, StoredMedia } from '@plaza/domain/accounts';
import { sql, type Kysely } from 'kysely';
import { chunks, ownedRows } from '../batches.js';
import type { Database } from '../database.js';

/** Tables that hold one row per user and live: the user's presence in others' broadcasts. */
const PER_USER = ['live_viewers', 'live_guests', 'live_moderators', 'live_chat_blocks', 'live_comments'] as const;

/**
 * The lives context's share of a user's data: the user's broadcasts go with everything attached to
 * them, and the user's presence, comments and reports in others' broadcasts go too. A broadcast has
 * no value to others once its host is gone.
 */
export class SqlLivesAccountData implements AccountDataPart {
  readonly sections = ['lives', 'live_comments'] as const;

  constructor(private readonly db: Kysely<Database>) {}

  rows(userId: number, section: string): AsyncIterable<ExportRow> {
    if (section === 'lives') {
      return ownedRows(this.db, 'lives', 'user_id', userId, [
        'id',
        'title',
        'description',
        'is_public',
        'max_guests',
        'status',
        'background_image',
        'created_at',
        'ended_at',
        'end_reason',
      ]);
    }
    return ownedRows(this.db, 'live_comments', 'user_id', userId, ['id', 'live_id', 'content', 'created_at']);
  }

  async *media(userId: number): AsyncGenerator<StoredMedia> {
    for await (const live of ownedRows(this.db, 'lives', 'user_id', userId, ['id', 'background_image'], { present: 'background_image' })) {
      yield { value: live.background_image!, kind: 'posts', source: `live:${live.id}` };
    }
  }

  async erase(userId: number): Promise<void> {
    const db = this.db;
    const own = db.selectFrom('lives').select('id').where('user_id', '=', userId);
    for (const table of [...PER_USER, 'live_reports'] as const) {
      await db.deleteFrom(table).where('live_id', 'in', own).execute();
    }
    await db.deleteFrom('lives').where('user_id', '=', userId).execute();
    for (const table of PER_USER) await db.deleteFrom(table).where('user_id', '=', userId).execute();
    // Reports the user filed on others' broadcasts go, and those broadcasts' counts follow.
    const reported = (await db.selectFrom('live_reports').select('live_id').where('reporter_id', '=', userId).execute()).map(
      (r) => r.live_id,
    );
    await db.deleteFrom('live_reports').where('reporter_id', '=', userId).execute();
    for (const ids of chunks([...new Set(reported)])) {
      await db
        .updateTable('lives')
        .set({ report_count: sql`(select count(*) from live_reports where live_reports.live_id = lives.id)` })
        .where('id', 'in', ids)
        .execute();
    }
  }
}
