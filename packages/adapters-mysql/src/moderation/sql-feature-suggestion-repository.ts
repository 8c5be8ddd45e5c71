import { type PageRequest, type Timestamp } from '@plaza/domain';
import {
  SUGGESTION_STATUSES,
  type FeatureSuggestionRepository,
  type SuggestionCommentRecord,
  type SuggestionFilter,
  type SuggestionRecord,
  type SuggestionStatus,
  type SuggestionVote,
} from '@plaza/domain/moderation';
import { sql, type Kysely, type Selectable } from 'kysely';
import { insertedId, lockRowForUpdate, type SqlDialect } from '../dialect.js';
import type { Database } from '../database.js';
import type { FeatureSuggestionsTable } from './schema.js';
import { pagedWithTotal } from '../paged-list.js';

function toRecord(row: Selectable<FeatureSuggestionsTable>): SuggestionRecord {
  return {
    ...row,
    id: Number(row.id),
    status: row.status as SuggestionStatus,
    votes_up: Number(row.votes_up),
    votes_down: Number(row.votes_down),
    score: Number(row.score),
    comment_count: Number(row.comment_count),
  };
}

export class SqlFeatureSuggestionRepository implements FeatureSuggestionRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: SqlDialect,
  ) {}

  async lock(id: number) {
    await lockRowForUpdate(this.db, this.dialect, 'feature_suggestions', id);
  }

  async create(s: { user_id: number; title: string; description: string; created_at: Timestamp }) {
    const id = insertedId(
      await this.db
        .insertInto('feature_suggestions')
        .values({ ...s, status: 'pending', updated_at: s.created_at })
        .executeTakeFirstOrThrow(),
    );
    return (await this.findById(id))!;
  }

  async findById(id: number) {
    const row = await this.db.selectFrom('feature_suggestions').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? toRecord(row) : null;
  }

  async list(filter: SuggestionFilter | null, page: PageRequest) {
    let q = this.db.selectFrom('feature_suggestions');
    if (filter === 'planned') q = q.where('status', 'in', ['planned', 'in_progress']);
    if (filter === 'done') q = q.where('status', '=', 'done');
    const byScore = filter !== null && filter !== 'recent';
    const { rows, total } = await pagedWithTotal(q, page, (f) =>
      byScore ? f.selectAll().orderBy('score', 'desc').orderBy('id', 'desc') : f.selectAll().orderBy('id', 'desc'),
    );
    return { items: rows.map(toRecord), total };
  }

  async countByStatus() {
    const rows = await this.db
      .selectFrom('feature_suggestions')
      .select(['status', (eb) => eb.fn.countAll<number>().as('n')])
      .groupBy('status')
      .execute();
    const counts = Object.fromEntries(SUGGESTION_STATUSES.map((s) => [s, 0])) as Record<SuggestionStatus, number>;
    for (const r of rows) if (r.status in counts) counts[r.status as SuggestionStatus] = Number(r.n);
    return counts;
  }

  /** Under the suggestion's lock (the caller's unit of work): read the vote, then move it, the counters and the score. */
  async setVote(id: number, userId: number, vote: SuggestionVote | null, at: Timestamp) {
    const row = await this.db
      .selectFrom('feature_suggestion_votes')
      .select('vote')
      .where('suggestion_id', '=', id)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    const before = row ? (Number(row.vote) as SuggestionVote) : null;
    if (before === vote) return before;
    if (before !== null)
      await this.db.deleteFrom('feature_suggestion_votes').where('suggestion_id', '=', id).where('user_id', '=', userId).execute();
    if (vote !== null)
      await this.db.insertInto('feature_suggestion_votes').values({ suggestion_id: id, user_id: userId, vote, created_at: at }).execute();
    const up = (vote === 1 ? 1 : 0) - (before === 1 ? 1 : 0);
    const down = (vote === -1 ? 1 : 0) - (before === -1 ? 1 : 0);
    await this.db
      .updateTable('feature_suggestions')
      .set({ votes_up: sql`votes_up + ${up}`, votes_down: sql`votes_down + ${down}`, score: sql`score + ${up - down}` })
      .where('id', '=', id)
      .execute();
    return before;
  }

  async votesOf(userId: number, ids: number[]) {
    if (ids.length === 0) return new Map<number, SuggestionVote>();
    const rows = await this.db
      .selectFrom('feature_suggestion_votes')
      .select(['suggestion_id', 'vote'])
      .where('user_id', '=', userId)
      .where('suggestion_id', 'in', ids)
      .execute();
    return new Map(rows.map((r) => [Number(r.suggestion_id), Number(r.vote) as SuggestionVote]));
  }

  async addComment(c: Omit<SuggestionCommentRecord, 'id'>) {
    return this.db.transaction().execute(async (trx) => {
      const id = insertedId(await trx.insertInto('feature_suggestion_comments').values(c).executeTakeFirstOrThrow());
      await trx
        .updateTable('feature_suggestions')
        .set({ comment_count: sql`comment_count + 1` })
        .where('id', '=', c.suggestion_id)
        .execute();
      return { id, ...c };
    });
  }

  async comments(suggestionId: number, page: PageRequest) {
    const q = this.db.selectFrom('feature_suggestion_comments').where('suggestion_id', '=', suggestionId);
    const { rows, total } = await pagedWithTotal(q, page, (f) => f.selectAll().orderBy('id', 'asc'));
    return { items: rows.map((r) => ({ ...r, id: Number(r.id) })), total };
  }

  async setStatus(id: number, status: SuggestionStatus, adminResponse: string | null, at: Timestamp) {
    await this.db
      .updateTable('feature_suggestions')
      .set({ status, admin_response: adminResponse, updated_at: at })
      .where('id', '=', id)
      .execute();
  }

  /** Votes, comments and the suggestion go together. */
  async delete(id: number) {
    return this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('feature_suggestion_votes').where('suggestion_id', '=', id).execute();
      await trx.deleteFrom('feature_suggestion_comments').where('suggestion_id', '=', id).execute();
      const result = await trx.deleteFrom('feature_suggestions').where('id', '=', id).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    });
  }
}
