import { type PageRequest, type Timestamp, offsetOf } from '@plaza/domain';
import type {
  CallParticipantRecord,
  CallRecord,
  CallRepository,
  CallSignalRecord,
  CallStatus,
  CallTransition,
  CallType,
  NewCall,
  NewSignal,
  ParticipantStatus,
  SignalCursor,
  SignalKind,
} from '@plaza/domain/calls';
import type { Kysely, Selectable } from 'kysely';
import { insertedId, insertOrUpdate, lockRowForUpdate, type SqlDialect } from '../dialect.js';
import type { Database } from '../database.js';
import type { CallParticipantsTable, CallSignalsTable, CallsTable } from './schema.js';

const nullableId = (v: number | null) => (v === null ? null : Number(v));

function toCall(row: Selectable<CallsTable>): CallRecord {
  return {
    ...row,
    id: Number(row.id),
    caller_id: Number(row.caller_id),
    recipient_id: nullableId(row.recipient_id),
    group_id: nullableId(row.group_id),
    call_type: row.call_type as CallType,
    status: row.status as CallStatus,
  };
}

function toParticipant(row: Selectable<CallParticipantsTable>): CallParticipantRecord {
  return { ...row, call_id: Number(row.call_id), user_id: Number(row.user_id), status: row.status as ParticipantStatus };
}

function toSignal(row: Selectable<CallSignalsTable>): CallSignalRecord {
  return {
    ...row,
    id: Number(row.id),
    call_id: Number(row.call_id),
    from_user_id: Number(row.from_user_id),
    to_user_id: nullableId(row.to_user_id),
    kind: row.kind as SignalKind,
  };
}

export class SqlCallRepository implements CallRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: SqlDialect,
  ) {}

  async lockCall(id: number) {
    await lockRowForUpdate(this.db, this.dialect, 'calls', id);
  }

  async create(call: NewCall, participants: { user_id: number; status: ParticipantStatus; at: Timestamp }[]) {
    return this.db.transaction().execute(async (trx) => {
      const id = insertedId(
        await trx
          .insertInto('calls')
          .values({ ...call, status: 'ringing', answer_sdp: null, answered_at: null, ended_at: null })
          .executeTakeFirstOrThrow(),
      );
      if (participants.length) {
        await trx
          .insertInto('call_participants')
          .values(
            participants.map((p) => ({
              call_id: id,
              user_id: p.user_id,
              status: p.status,
              joined_at: p.status === 'joined' ? p.at : null,
              left_at: null,
            })),
          )
          .execute();
      }
      return { ...call, id, status: 'ringing' as const, answer_sdp: null, answered_at: null, ended_at: null };
    });
  }

  async findById(id: number) {
    const row = await this.db.selectFrom('calls').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? toCall(row) : null;
  }

  async openCallOfGroup(groupId: number) {
    const row = await this.db
      .selectFrom('calls')
      .selectAll()
      .where('group_id', '=', groupId)
      .where('status', 'in', ['ringing', 'active'])
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
    return row ? toCall(row) : null;
  }

  async participants(callId: number) {
    const rows = await this.db.selectFrom('call_participants').selectAll().where('call_id', '=', callId).orderBy('user_id').execute();
    return rows.map(toParticipant);
  }

  async participant(callId: number, userId: number) {
    const row = await this.db
      .selectFrom('call_participants')
      .selectAll()
      .where('call_id', '=', callId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return row ? toParticipant(row) : null;
  }

  async putParticipant(callId: number, userId: number, status: ParticipantStatus, at: Timestamp) {
    // One statement, so that two joins at once cannot both insert.
    const times = { ...(status === 'joined' ? { joined_at: at } : {}), ...(status === 'left' ? { left_at: at } : {}) };
    await insertOrUpdate(
      this.db,
      this.dialect,
      'call_participants',
      [{ call_id: callId, user_id: userId, status, joined_at: null, left_at: null, ...times }],
      ['call_id', 'user_id'],
      { status, ...times },
    );
  }

  async transition(id: number, from: readonly CallStatus[], to: CallTransition) {
    const result = await this.db
      .updateTable('calls')
      .set({ ...to })
      .where('id', '=', id)
      .where('status', 'in', [...from])
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async setSdp(id: number, when: readonly CallStatus[], sdp: { offer_sdp?: string; answer_sdp?: string | null }) {
    const result = await this.db
      .updateTable('calls')
      .set({ ...sdp })
      .where('id', '=', id)
      .where('status', 'in', [...when])
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async addSignal(signal: NewSignal) {
    const id = insertedId(await this.db.insertInto('call_signals').values(signal).executeTakeFirstOrThrow());
    return { ...signal, id };
  }

  async signalsFor(callId: number, userId: number, after: SignalCursor | null, limit: number) {
    let q = this.db
      .selectFrom('call_signals')
      .selectAll()
      .where('call_id', '=', callId)
      .where('from_user_id', '<>', userId)
      .where((eb) => eb.or([eb('to_user_id', 'is', null), eb('to_user_id', '=', userId)]));
    if (after && 'afterId' in after) q = q.where('id', '>', after.afterId);
    else if (after) q = q.where('created_at', '>', after.afterTime);
    const rows = await q.orderBy('id').limit(limit).execute();
    return rows.map(toSignal);
  }

  async history(userId: number, page: PageRequest) {
    const [rows, count] = await Promise.all([
      this.db
        .selectFrom('call_participants as p')
        .innerJoin('calls as c', 'c.id', 'p.call_id')
        .selectAll('c')
        .where('p.user_id', '=', userId)
        .orderBy('p.call_id', 'desc')
        .limit(page.perPage)
        .offset(offsetOf(page))
        .execute(),
      this.db
        .selectFrom('call_participants')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('user_id', '=', userId)
        .executeTakeFirstOrThrow(),
    ]);
    return { items: rows.map(toCall), total: Number(count.n) };
  }

  async missRinging(startedBefore: Timestamp, at: Timestamp) {
    const result = await this.db
      .updateTable('calls')
      .set({ status: 'missed', ended_at: at })
      .where('status', '=', 'ringing')
      .where('created_at', '<=', startedBefore)
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }
}
