import type { Timestamp } from '@plaza/domain';
import type { AccountDataPart, ExportRow, StoredMedia } from '@plaza/domain/accounts';
import { sql, type Kysely } from 'kysely';
import { BATCH, chunks, keyset, ownedRows } from '../batches.js';
import type { Database } from '../database.js';

/**
 * The events context's share of a user's data: the events they organise (which go, with their
 * participants and invitations), their participation in others' events and the invitations they sent
 * or received.
 */
export class SqlEventAccountData implements AccountDataPart {
  readonly sections = ['events', 'event_participations'] as const;

  constructor(private readonly db: Kysely<Database>) {}

  rows(userId: number, section: string): AsyncIterable<ExportRow> {
    const db = this.db;
    if (section === 'events') {
      return ownedRows(db, 'events', 'creator_id', userId, [
        'id',
        'title',
        'description',
        'location',
        'event_date',
        'image',
        'participants_count',
        'created_at',
      ]);
    }
    return keyset(
      (after) =>
        db
          .selectFrom('event_participants as p')
          .innerJoin('events as e', 'e.id', 'p.event_id')
          .select(['p.event_id', 'e.title', 'e.event_date', 'p.created_at'])
          .where('p.user_id', '=', userId)
          .where('p.event_id', '>', after)
          .orderBy('p.event_id')
          .limit(BATCH)
          .execute(),
      (r) => r.event_id,
    );
  }

  async *media(userId: number): AsyncGenerator<StoredMedia> {
    for await (const e of ownedRows(this.db, 'events', 'creator_id', userId, ['id', 'image'], { present: 'image' })) {
      yield { value: String(e.image), kind: 'event', source: `event:${e.id}` };
    }
  }

  async erase(userId: number, _at: Timestamp): Promise<void> {
    const db = this.db;
    const joined = (await db.selectFrom('event_participants').select('event_id').where('user_id', '=', userId).execute()).map(
      (r) => r.event_id,
    );
    const own = db.selectFrom('events').select('id').where('creator_id', '=', userId);
    await db.deleteFrom('event_participants').where('event_id', 'in', own).execute();
    await db.deleteFrom('event_invites').where('event_id', 'in', own).execute();
    await db.deleteFrom('events').where('creator_id', '=', userId).execute();
    await db.deleteFrom('event_participants').where('user_id', '=', userId).execute();
    await db
      .deleteFrom('event_invites')
      .where((eb) => eb.or([eb('user_id', '=', userId), eb('invited_by', '=', userId)]))
      .execute();
    for (const ids of chunks(joined)) {
      await db
        .updateTable('events')
        .set({ participants_count: sql`(select count(*) from event_participants where event_participants.event_id = events.id)` })
        .where('id', 'in', ids)
        .execute();
    }
  }
}
