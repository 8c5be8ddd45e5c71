import type { Timestamp } from '@plaza/domain';
import type { NewPushOutboxEntry, PushMessage, PushOutbox, PushOutboxEntry, PushProviderName } from '@plaza/domain/notifications';
import type { Kysely, Selectable } from 'kysely';
import { insertedId } from '../dialect.js';
import type { Database } from '../database.js';
import type { PushOutboxTable } from './push-schema.js';

function toEntry(row: Selectable<PushOutboxTable>): PushOutboxEntry {
  return {
    id: Number(row.id),
    user_id: Number(row.user_id),
    provider: row.provider as PushProviderName,
    message: JSON.parse(row.payload) as PushMessage,
    attempts: Number(row.attempts),
    next_attempt_at: row.next_attempt_at,
    last_error: row.last_error,
    created_at: row.created_at,
  };
}

export class SqlPushOutbox implements PushOutbox {
  constructor(private readonly db: Kysely<Database>) {}

  async add(entry: NewPushOutboxEntry) {
    const { message, ...rest } = entry;
    return insertedId(
      await this.db
        .insertInto('push_outbox')
        .values({ ...rest, payload: JSON.stringify(message) })
        .executeTakeFirstOrThrow(),
    );
  }

  async find(id: number) {
    const row = await this.db.selectFrom('push_outbox').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? toEntry(row) : null;
  }

  async due(now: Timestamp, limit: number) {
    const rows = await this.db
      .selectFrom('push_outbox')
      .selectAll()
      .where('next_attempt_at', '<=', now)
      .orderBy('next_attempt_at')
      .orderBy('id')
      .limit(limit)
      .execute();
    return rows.map(toEntry);
  }

  async claim(id: number, expected: Timestamp, until: Timestamp) {
    const r = await this.db
      .updateTable('push_outbox')
      .set({ next_attempt_at: until })
      .where('id', '=', id)
      .where('next_attempt_at', '=', expected)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  async reschedule(id: number, attempts: number, next: Timestamp, error: string) {
    await this.db
      .updateTable('push_outbox')
      .set({ attempts, next_attempt_at: next, last_error: error.slice(0, 500) })
      .where('id', '=', id)
      .execute();
  }

  async remove(id: number) {
    await this.db.deleteFrom('push_outbox').where('id', '=', id).execute();
  }
}
