import { type PageRequest, type Timestamp } from '@plaza/domain';
import type { CandidacyRecord, CandidacyRepository, CandidacyStatus, CandidateVote } from '@plaza/domain/moderation';
import { sql, type Kysely, type Selectable } from 'kysely';
import { insertedId, isUniqueViolation, lockRowForUpdate, type SqlDialect } from '../dialect.js';
import type { Database } from '../database.js';
import type { ModeratorCandidaciesTable } from './schema.js';
import { pagedWithTotal } from '../paged-list.js';

const COUNTER: Record<CandidateVote, 'votes_for' | 'votes_against'> = { for: 'votes_for', against: 'votes_against' };

function toRecord(row: Selectable<ModeratorCandidaciesTable>): CandidacyRecord {
  const { open_user_id: _open, ...rest } = row;
  return {
    ...rest,
    id: Number(row.id),
    status: row.status as CandidacyStatus,
    votes_for: Number(row.votes_for),
    votes_against: Number(row.votes_against),
  };
}

export class SqlCandidacyRepository implements CandidacyRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: SqlDialect,
  ) {}

  /** The candidate's account row stands for their candidacy, which may not exist yet. */
  async lockCandidate(userId: number) {
    await lockRowForUpdate(this.db, this.dialect, 'users', userId);
  }

  /** The unique open_user_id decides between concurrent applications: one insert wins. */
  async create(userId: number, motivation: string, at: Timestamp) {
    try {
      const values = {
        user_id: userId,
        motivation,
        status: 'candidate',
        open_user_id: userId,
        created_at: at,
        elected_at: null,
        ended_at: null,
      };
      const id = insertedId(await this.db.insertInto('moderator_candidacies').values(values).executeTakeFirstOrThrow());
      return {
        id,
        user_id: userId,
        motivation,
        status: 'candidate' as const,
        votes_for: 0,
        votes_against: 0,
        created_at: at,
        elected_at: null,
        ended_at: null,
      };
    } catch (error) {
      if (isUniqueViolation(error)) return null;
      throw error;
    }
  }

  async findOpen(userId: number) {
    const row = await this.db.selectFrom('moderator_candidacies').selectAll().where('open_user_id', '=', userId).executeTakeFirst();
    return row ? toRecord(row) : null;
  }

  async findOpenOf(userIds: number[]) {
    if (userIds.length === 0) return [];
    const rows = await this.db.selectFrom('moderator_candidacies').selectAll().where('open_user_id', 'in', userIds).execute();
    return rows.map(toRecord);
  }

  /** Under the candidate's lock (the caller's unit of work): read the vote, then move it and the counters. */
  async setVote(candidacyId: number, voterId: number, vote: CandidateVote, at: Timestamp) {
    const row = await this.db
      .selectFrom('moderator_votes')
      .select('vote')
      .where('candidacy_id', '=', candidacyId)
      .where('voter_id', '=', voterId)
      .executeTakeFirst();
    const before = (row?.vote ?? null) as CandidateVote | null;
    if (before === vote) return before;
    if (before) {
      await this.db
        .updateTable('moderator_votes')
        .set({ vote, created_at: at })
        .where('candidacy_id', '=', candidacyId)
        .where('voter_id', '=', voterId)
        .execute();
    } else {
      await this.db.insertInto('moderator_votes').values({ candidacy_id: candidacyId, voter_id: voterId, vote, created_at: at }).execute();
    }
    const moves = {
      [COUNTER[vote]]: sql`${sql.ref(COUNTER[vote])} + 1`,
      ...(before ? { [COUNTER[before]]: sql`${sql.ref(COUNTER[before])} - 1` } : {}),
    };
    await this.db.updateTable('moderator_candidacies').set(moves).where('id', '=', candidacyId).execute();
    return before;
  }

  async votesOf(voterId: number, candidacyIds: number[]) {
    if (candidacyIds.length === 0) return new Map<number, CandidateVote>();
    const rows = await this.db
      .selectFrom('moderator_votes')
      .select(['candidacy_id', 'vote'])
      .where('voter_id', '=', voterId)
      .where('candidacy_id', 'in', candidacyIds)
      .execute();
    return new Map(rows.map((r) => [Number(r.candidacy_id), r.vote as CandidateVote]));
  }

  async elect(id: number, at: Timestamp) {
    const result = await this.db
      .updateTable('moderator_candidacies')
      .set({ status: 'elected', elected_at: at })
      .where('id', '=', id)
      .where('status', '=', 'candidate')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async close(id: number, status: 'withdrawn' | 'rejected' | 'resigned' | 'revoked', at: Timestamp) {
    const result = await this.db
      .updateTable('moderator_candidacies')
      .set({ status, ended_at: at, open_user_id: null })
      .where('id', '=', id)
      .where('open_user_id', 'is not', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async candidates(page: PageRequest) {
    const q = this.db.selectFrom('moderator_candidacies').where('status', '=', 'candidate');
    const { rows, total } = await pagedWithTotal(q, page, (f) => f.selectAll().orderBy('id', 'desc'));
    return { items: rows.map(toRecord), total };
  }
}
