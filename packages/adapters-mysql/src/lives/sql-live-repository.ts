import { type PageRequest, type Timestamp, offsetOf } from '@plaza/domain';
import type {
  GuestStatus,
  LiveCommentRecord,
  LiveEndReason,
  LiveGuestRecord,
  LiveRecord,
  LiveReportRecord,
  LiveRepository,
  LiveStatus,
  NewLive,
} from '@plaza/domain/lives';
import { sql, type Kysely, type Selectable } from 'kysely';
import { insertedId, insertIfAbsent, insertOrUpdate, lockRowForUpdate, type SqlDialect } from '../dialect.js';
import type { Database } from '../database.js';
import type { LiveCommentsTable, LiveGuestsTable, LiveReportsTable, LivesTable } from './schema.js';
import { pagedWithTotal } from '../paged-list.js';

function toLive(row: Selectable<LivesTable>): LiveRecord {
  return {
    ...row,
    id: Number(row.id),
    user_id: Number(row.user_id),
    is_public: Boolean(Number(row.is_public)),
    max_guests: Number(row.max_guests),
    status: row.status as LiveStatus,
    report_count: Number(row.report_count),
    is_suspended: Boolean(Number(row.is_suspended)),
    end_reason: row.end_reason as LiveEndReason | null,
  };
}

const toGuest = (row: Selectable<LiveGuestsTable>): LiveGuestRecord => ({
  ...row,
  live_id: Number(row.live_id),
  user_id: Number(row.user_id),
  status: row.status as GuestStatus,
});
const toComment = (row: Selectable<LiveCommentsTable>): LiveCommentRecord => ({
  ...row,
  id: Number(row.id),
  live_id: Number(row.live_id),
  user_id: Number(row.user_id),
});
const toReport = (row: Selectable<LiveReportsTable>): LiveReportRecord => ({
  ...row,
  id: Number(row.id),
  live_id: Number(row.live_id),
  reporter_id: Number(row.reporter_id),
});

export class SqlLiveRepository implements LiveRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: SqlDialect,
  ) {}

  async lockCreator(userId: number) {
    await lockRowForUpdate(this.db, this.dialect, 'users', userId);
  }

  async lockLive(id: number) {
    await lockRowForUpdate(this.db, this.dialect, 'lives', id);
  }

  async create(live: NewLive) {
    const row = { ...live, is_public: live.is_public ? 1 : 0, status: 'active', background_image: null, ended_at: null, end_reason: null };
    const id = insertedId(await this.db.insertInto('lives').values(row).executeTakeFirstOrThrow());
    return {
      ...live,
      id,
      status: 'active' as const,
      background_image: null,
      report_count: 0,
      is_suspended: false,
      ended_at: null,
      end_reason: null,
    };
  }

  async findById(id: number) {
    const row = await this.db.selectFrom('lives').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? toLive(row) : null;
  }

  async findByIds(ids: number[]) {
    if (ids.length === 0) return [];
    return (await this.db.selectFrom('lives').selectAll().where('id', 'in', ids).execute()).map(toLive);
  }

  async endActiveOf(userId: number, at: Timestamp, reason: LiveEndReason) {
    const rows = await this.db.selectFrom('lives').select('id').where('user_id', '=', userId).where('status', '=', 'active').execute();
    if (rows.length === 0) return [];
    const ids = rows.map((r) => Number(r.id));
    await this.db
      .updateTable('lives')
      .set({ status: 'ended', ended_at: at, end_reason: reason })
      .where('id', 'in', ids)
      .where('status', '=', 'active')
      .execute();
    return ids;
  }

  async end(id: number, at: Timestamp, reason: LiveEndReason) {
    const r = await this.db
      .updateTable('lives')
      .set({ status: 'ended', ended_at: at, end_reason: reason })
      .where('id', '=', id)
      .where('status', '=', 'active')
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  async listActive(viewerId: number, page: PageRequest) {
    const base = this.db
      .selectFrom('lives')
      .where('status', '=', 'active')
      .where((eb) => eb.or([eb('is_public', '=', 1), eb('user_id', '=', viewerId)]));
    const { rows, total } = await pagedWithTotal(base, page, (q) => q.selectAll().orderBy('id', 'desc'));
    return { items: rows.map(toLive), total };
  }

  async setBackground(id: number, background: string | null) {
    await this.db.updateTable('lives').set({ background_image: background }).where('id', '=', id).execute();
  }

  async pingViewer(liveId: number, userId: number, at: Timestamp) {
    await insertOrUpdate(
      this.db,
      this.dialect,
      'live_viewers',
      [{ live_id: liveId, user_id: userId, last_ping_at: at, media_connected: 0, updated_at: at }],
      ['live_id', 'user_id'],
      {
        last_ping_at: at,
        updated_at: at,
      },
    );
  }

  async setMediaPresence(liveId: number, userId: number, connected: boolean, at: Timestamp) {
    const flag = connected ? 1 : 0;
    await insertOrUpdate(
      this.db,
      this.dialect,
      'live_viewers',
      [{ live_id: liveId, user_id: userId, last_ping_at: null, media_connected: flag, updated_at: at }],
      ['live_id', 'user_id'],
      {
        media_connected: flag,
        updated_at: at,
      },
    );
  }

  async viewerCounts(liveIds: number[], pingedSince: Timestamp) {
    if (liveIds.length === 0) return new Map<number, number>();
    const rows = await this.db
      .selectFrom('live_viewers as v')
      .innerJoin('lives as l', 'l.id', 'v.live_id')
      .select(['v.live_id', (eb) => eb.fn.countAll<number>().as('n')])
      .where('v.live_id', 'in', liveIds)
      .whereRef('v.user_id', '<>', 'l.user_id')
      .where((eb) => eb.or([eb('v.media_connected', '=', 1), eb('v.last_ping_at', '>=', pingedSince)]))
      .groupBy('v.live_id')
      .execute();
    return new Map(rows.map((r) => [Number(r.live_id), Number(r.n)]));
  }

  async guest(liveId: number, userId: number) {
    const row = await this.db
      .selectFrom('live_guests')
      .selectAll()
      .where('live_id', '=', liveId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return row ? toGuest(row) : null;
  }

  async requestGuest(liveId: number, userId: number, message: string | null, at: Timestamp) {
    const inserted = await insertIfAbsent(this.db, 'live_guests', {
      live_id: liveId,
      user_id: userId,
      status: 'pending',
      message,
      created_at: at,
      decided_at: null,
    });
    if (!inserted) {
      // Asking again after a refusal opens a new request; a pending or approved one stays as it is.
      await this.db
        .updateTable('live_guests')
        .set({ status: 'pending', message, created_at: at, decided_at: null })
        .where('live_id', '=', liveId)
        .where('user_id', '=', userId)
        .where('status', '=', 'rejected')
        .execute();
    }
    return (await this.guest(liveId, userId))!;
  }

  async decideGuest(liveId: number, userId: number, from: readonly GuestStatus[], to: GuestStatus, at: Timestamp) {
    const r = await this.db
      .updateTable('live_guests')
      .set({ status: to, decided_at: at })
      .where('live_id', '=', liveId)
      .where('user_id', '=', userId)
      .where('status', 'in', [...from])
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  async guests(liveId: number, status: GuestStatus | null, page: PageRequest) {
    let base = this.db.selectFrom('live_guests').where('live_id', '=', liveId);
    if (status !== null) base = base.where('status', '=', status);
    const { rows, total } = await pagedWithTotal(base, page, (q) => q.selectAll().orderBy('created_at').orderBy('user_id'));
    return { items: rows.map(toGuest), total };
  }

  async countGuests(liveId: number, status: GuestStatus) {
    const row = await this.db
      .selectFrom('live_guests')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('live_id', '=', liveId)
      .where('status', '=', status)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  addModerator(liveId: number, userId: number, at: Timestamp) {
    return insertIfAbsent(this.db, 'live_moderators', { live_id: liveId, user_id: userId, created_at: at });
  }

  async isModerator(liveId: number, userId: number) {
    return !!(await this.db
      .selectFrom('live_moderators')
      .select('id')
      .where('live_id', '=', liveId)
      .where('user_id', '=', userId)
      .executeTakeFirst());
  }

  async moderatorIds(liveId: number) {
    return (await this.db.selectFrom('live_moderators').select('user_id').where('live_id', '=', liveId).orderBy('id').execute()).map((r) =>
      Number(r.user_id),
    );
  }

  blockChat(liveId: number, userId: number, at: Timestamp) {
    return insertIfAbsent(this.db, 'live_chat_blocks', { live_id: liveId, user_id: userId, created_at: at });
  }

  async isChatBlocked(liveId: number, userId: number) {
    return !!(await this.db
      .selectFrom('live_chat_blocks')
      .select('id')
      .where('live_id', '=', liveId)
      .where('user_id', '=', userId)
      .executeTakeFirst());
  }

  async blockedIds(liveId: number) {
    return (await this.db.selectFrom('live_chat_blocks').select('user_id').where('live_id', '=', liveId).orderBy('id').execute()).map((r) =>
      Number(r.user_id),
    );
  }

  async addComment(comment: Omit<LiveCommentRecord, 'id'>) {
    const id = insertedId(await this.db.insertInto('live_comments').values(comment).executeTakeFirstOrThrow());
    return { ...comment, id };
  }

  async findComment(id: number) {
    const row = await this.db.selectFrom('live_comments').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? toComment(row) : null;
  }

  async comments(liveId: number, page: PageRequest) {
    const [rows, count] = await Promise.all([
      this.db
        .selectFrom('live_comments')
        .selectAll()
        .where('live_id', '=', liveId)
        .orderBy('id', 'desc')
        .limit(page.perPage)
        .offset(offsetOf(page))
        .execute(),
      this.db
        .selectFrom('live_comments')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('live_id', '=', liveId)
        .executeTakeFirstOrThrow(),
    ]);
    return { items: rows.map(toComment).reverse(), total: Number(count.n) };
  }

  async deleteComment(id: number) {
    const r = await this.db.deleteFrom('live_comments').where('id', '=', id).executeTakeFirst();
    return Number(r.numDeletedRows) > 0;
  }

  async report(report: Omit<LiveReportRecord, 'id'>, suspendAt: number) {
    return this.db.transaction().execute(async (trx) => {
      const added = await insertIfAbsent(trx, 'live_reports', report);
      if (added) {
        // One statement: the count and the suspension it may cause move together.
        await trx
          .updateTable('lives')
          // is_suspended first: MySQL evaluates assignments in order, with the values already set.
          .set({
            is_suspended: sql`case when report_count + 1 >= ${suspendAt} then 1 else is_suspended end`,
            report_count: sql`report_count + 1`,
          })
          .where('id', '=', report.live_id)
          .execute();
      }
      const live = await trx
        .selectFrom('lives')
        .select(['report_count', 'is_suspended'])
        .where('id', '=', report.live_id)
        .executeTakeFirstOrThrow();
      return { added, report_count: Number(live.report_count), is_suspended: Boolean(Number(live.is_suspended)) };
    });
  }

  async reports(page: PageRequest) {
    const [rows, count] = await Promise.all([
      this.db.selectFrom('live_reports').selectAll().orderBy('id', 'desc').limit(page.perPage).offset(offsetOf(page)).execute(),
      this.db
        .selectFrom('live_reports')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow(),
    ]);
    return { items: rows.map(toReport), total: Number(count.n) };
  }
}
