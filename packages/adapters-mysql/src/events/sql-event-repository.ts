import { type PageRequest, type Timestamp } from '@plaza/domain';
import type { EventRecord, EventRepository, NewEvent } from '@plaza/domain/events';
import { sql, type Kysely, type Selectable } from 'kysely';
import type { Database } from '../database.js';
import { insertedId, insertIfAbsent, lockRowForUpdate, type SqlDialect } from '../dialect.js';
import type { EventsTable } from './schema.js';
import { pagedWithTotal } from '../paged-list.js';

function toEvent(row: Selectable<EventsTable>): EventRecord {
  return { ...row, participants_count: Number(row.participants_count) };
}

function affected(result: object): boolean {
  const r = result as { numDeletedRows?: bigint };
  return Number(r.numDeletedRows ?? 0) > 0;
}

export class SqlEventRepository implements EventRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: SqlDialect,
  ) {}

  async lock(id: number) {
    await lockRowForUpdate(this.db, this.dialect, 'events', id);
  }

  async create(event: NewEvent) {
    return this.db.transaction().execute(async (trx) => {
      const id = insertedId(
        await trx
          .insertInto('events')
          .values({ ...event, participants_count: 1 })
          .executeTakeFirstOrThrow(),
      );
      await trx
        .insertInto('event_participants')
        .values({ event_id: id, user_id: event.creator_id, created_at: event.created_at })
        .execute();
      return { ...event, id, participants_count: 1 };
    });
  }

  async findById(id: number) {
    const row = await this.db.selectFrom('events').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? toEvent(row) : null;
  }

  async upcoming(from: string, req: PageRequest) {
    const base = this.db.selectFrom('events').where('event_date', '>=', from);
    const { rows, total } = await pagedWithTotal(base, req, (q) => q.selectAll().orderBy('event_date').orderBy('id'));
    return { items: rows.map(toEvent), total };
  }

  async participatingIn(userId: number, eventIds: number[]) {
    if (eventIds.length === 0) return new Set<number>();
    const rows = await this.db
      .selectFrom('event_participants')
      .select('event_id')
      .where('user_id', '=', userId)
      .where('event_id', 'in', eventIds)
      .execute();
    return new Set(rows.map((r) => r.event_id));
  }

  async join(eventId: number, userId: number, at: Timestamp) {
    return this.db.transaction().execute(async (trx) => {
      await lockRowForUpdate(trx, this.dialect, 'events', eventId);
      if (!(await insertIfAbsent(trx, 'event_participants', { event_id: eventId, user_id: userId, created_at: at }))) return false;
      await trx.updateTable('events').set({ participants_count: sql`participants_count + 1` }).where('id', '=', eventId).execute();
      return true;
    });
  }

  async leave(eventId: number, userId: number) {
    return this.db.transaction().execute(async (trx) => {
      await lockRowForUpdate(trx, this.dialect, 'events', eventId);
      const deleted = await trx
        .deleteFrom('event_participants')
        .where('event_id', '=', eventId)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      if (!affected(deleted)) return false;
      await trx.updateTable('events').set({ participants_count: sql`participants_count - 1` }).where('id', '=', eventId).execute();
      return true;
    });
  }

  async invite(eventId: number, userId: number, invitedBy: number, at: Timestamp) {
    return insertIfAbsent(this.db, 'event_invites', { event_id: eventId, user_id: userId, invited_by: invitedBy, created_at: at });
  }

  async delete(id: number) {
    await this.db.transaction().execute(async (trx) => {
      await lockRowForUpdate(trx, this.dialect, 'events', id);
      await trx.deleteFrom('event_participants').where('event_id', '=', id).execute();
      await trx.deleteFrom('event_invites').where('event_id', '=', id).execute();
      await trx.deleteFrom('events').where('id', '=', id).execute();
    });
  }
}
