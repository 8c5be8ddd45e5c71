import { type PageRequest, type Timestamp } from '@plaza/domain';
import type {
  NewReport,
  ReportDecision,
  ReportedPostType,
  ReportOutcome,
  ReportRecord,
  ReportRepository,
  ReportStatus,
  ReportTarget,
} from '@plaza/domain/moderation';
import { sql, type Kysely, type Selectable } from 'kysely';
import { insertedId, isUniqueViolation, lockRowForUpdate, type SqlDialect } from '../dialect.js';
import type { Database } from '../database.js';
import type { ReportsTable } from './schema.js';
import { pagedWithTotal } from '../paged-list.js';

const COUNTER: Record<ReportOutcome, 'votes_remove' | 'votes_warn' | 'votes_keep'> = {
  remove: 'votes_remove',
  warn: 'votes_warn',
  keep: 'votes_keep',
};

/** One pending report per reporter and target: `post:12` (a wall post, as before kinds), `group:12`, `page:12`, `user:3`. */
function openKey(target: ReportTarget): string {
  return 'post_id' in target ? `${target.post_type}:${target.post_id}` : `user:${target.user_id}`;
}

function toRecord(row: Selectable<ReportsTable>): ReportRecord {
  const { open_key: _openKey, ...rest } = row;
  return {
    ...rest,
    id: Number(row.id),
    status: row.status as ReportStatus,
    post_type: row.post_type as ReportedPostType,
    resolution: row.resolution as ReportOutcome | null,
    votes_remove: Number(row.votes_remove),
    votes_warn: Number(row.votes_warn),
    votes_keep: Number(row.votes_keep),
  };
}

export class SqlReportRepository implements ReportRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: SqlDialect,
  ) {}

  async lock(id: number) {
    await lockRowForUpdate(this.db, this.dialect, 'reports', id);
  }

  /** The unique (reporter, open target) key decides between concurrent reports: one insert wins. */
  async create(report: NewReport) {
    const target: ReportTarget =
      report.post_id !== null ? { post_id: report.post_id, post_type: report.post_type } : { user_id: report.user_id! };
    const values = { ...report, status: 'pending', open_key: openKey(target) };
    try {
      const id = insertedId(await this.db.insertInto('reports').values(values).executeTakeFirstOrThrow());
      return (await this.findById(id))!;
    } catch (error) {
      if (isUniqueViolation(error)) return null;
      throw error;
    }
  }

  async findById(id: number) {
    const row = await this.db.selectFrom('reports').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? toRecord(row) : null;
  }

  async findPending(reporterId: number, target: ReportTarget) {
    const row = await this.db
      .selectFrom('reports')
      .selectAll()
      .where('reporter_id', '=', reporterId)
      .where('open_key', '=', openKey(target))
      .executeTakeFirst();
    return row ? toRecord(row) : null;
  }

  async list(status: 'pending' | 'resolved', reporterId: number | null, page: PageRequest) {
    let q = this.db.selectFrom('reports').where('status', '=', status);
    if (reporterId !== null) q = q.where('reporter_id', '=', reporterId);
    const { rows, total } = await pagedWithTotal(q, page, (f) => f.selectAll().orderBy('id', 'desc'));
    return { items: rows.map(toRecord), total };
  }

  async aboutUser(userId: number, page: PageRequest) {
    // reports_target (target_user_id, id) serves the filter and the order.
    const q = this.db.selectFrom('reports').where('target_user_id', '=', userId);
    const { rows, total } = await pagedWithTotal(q, page, (f) => f.selectAll().orderBy('id', 'desc'));
    return { items: rows.map(toRecord), total };
  }

  /** Under the report's lock (the caller's unit of work): read the vote, then move it and the counters. */
  async setVote(reportId: number, voterId: number, vote: ReportOutcome | null, at: Timestamp) {
    const row = await this.db
      .selectFrom('report_votes')
      .select('vote')
      .where('report_id', '=', reportId)
      .where('voter_id', '=', voterId)
      .executeTakeFirst();
    const before = (row?.vote ?? null) as ReportOutcome | null;
    if (before === vote) return before;
    if (before) {
      await this.db.deleteFrom('report_votes').where('report_id', '=', reportId).where('voter_id', '=', voterId).execute();
      await this.move(reportId, COUNTER[before], -1);
    }
    if (vote) {
      await this.db.insertInto('report_votes').values({ report_id: reportId, voter_id: voterId, vote, created_at: at }).execute();
      await this.move(reportId, COUNTER[vote], 1);
    }
    return before;
  }

  private async move(reportId: number, column: 'votes_remove' | 'votes_warn' | 'votes_keep', delta: number) {
    await this.db
      .updateTable('reports')
      .set({ [column]: sql`${sql.ref(column)} + ${delta}` })
      .where('id', '=', reportId)
      .execute();
  }

  async votesOf(voterId: number, reportIds: number[]) {
    if (reportIds.length === 0) return new Map<number, ReportOutcome>();
    const rows = await this.db
      .selectFrom('report_votes')
      .select(['report_id', 'vote'])
      .where('voter_id', '=', voterId)
      .where('report_id', 'in', reportIds)
      .execute();
    return new Map(rows.map((r) => [Number(r.report_id), r.vote as ReportOutcome]));
  }

  /** One conditional write: of two deciders, only the one that found it pending resolves it. */
  async resolve(id: number, decision: ReportDecision) {
    const result = await this.db
      .updateTable('reports')
      .set({ status: 'resolved', open_key: null, ...decision })
      .where('id', '=', id)
      .where('status', '=', 'pending')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async resolvePendingOnPost(target: { post_id: number; post_type: ReportedPostType }, decision: ReportDecision) {
    const result = await this.db
      .updateTable('reports')
      .set({ status: 'resolved', open_key: null, ...decision })
      .where('post_id', '=', target.post_id)
      .where('post_type', '=', target.post_type)
      .where('status', '=', 'pending')
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  async cancel(id: number, _at: Timestamp) {
    const result = await this.db
      .updateTable('reports')
      .set({ status: 'cancelled', open_key: null })
      .where('id', '=', id)
      .where('status', '=', 'pending')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }
}
