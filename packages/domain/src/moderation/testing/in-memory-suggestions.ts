import type { PageRequest } from '../../shared/pagination.js';
import type { Timestamp } from '../../shared/time.js';
import { captureState, type Snapshottable } from '../../shared/testing/snapshot.js';
import type { SuggestionCommentRecord, SuggestionRecord } from '../model.js';
import type { FeatureSuggestionRepository } from '../ports.js';
import { SUGGESTION_STATUSES, type SuggestionFilter, type SuggestionStatus, type SuggestionVote } from '../rules.js';
import { byIdDesc, pageOf } from './paging.js';

const byScore = (a: SuggestionRecord, b: SuggestionRecord) => b.score - a.score || b.id - a.id;

export class InMemoryFeatureSuggestionRepository implements FeatureSuggestionRepository, Snapshottable {
  readonly rows: SuggestionRecord[] = [];
  readonly votes: { suggestion_id: number; user_id: number; vote: SuggestionVote; created_at: Timestamp }[] = [];
  readonly commentRows: SuggestionCommentRecord[] = [];
  private nextId = 1;
  private nextCommentId = 1;

  snapshot() {
    const restore = captureState(this.rows, this.votes, this.commentRows);
    const [nextId, nextCommentId] = [this.nextId, this.nextCommentId];
    return () => {
      restore();
      [this.nextId, this.nextCommentId] = [nextId, nextCommentId];
    };
  }

  /** One flow of control at a time in memory: nothing to serialize. */
  async lock(_id: number) {}

  async create(s: { user_id: number; title: string; description: string; created_at: Timestamp }) {
    const record: SuggestionRecord = {
      id: this.nextId++,
      ...s,
      status: 'pending',
      admin_response: null,
      votes_up: 0,
      votes_down: 0,
      score: 0,
      comment_count: 0,
      updated_at: s.created_at,
    };
    this.rows.push(record);
    return { ...record };
  }

  async findById(id: number) {
    const s = this.rows.find((x) => x.id === id);
    return s ? { ...s } : null;
  }

  async list(filter: SuggestionFilter | null, page: PageRequest) {
    const statuses: SuggestionStatus[] | null = filter === 'planned' ? ['planned', 'in_progress'] : filter === 'done' ? ['done'] : null;
    const rows = this.rows.filter((s) => statuses === null || statuses.includes(s.status));
    return pageOf(rows.sort(filter === null || filter === 'recent' ? byIdDesc : byScore), page);
  }

  async countByStatus() {
    const counts = Object.fromEntries(SUGGESTION_STATUSES.map((s) => [s, 0])) as Record<SuggestionStatus, number>;
    for (const s of this.rows) counts[s.status] += 1;
    return counts;
  }

  async setVote(id: number, userId: number, vote: SuggestionVote | null, at: Timestamp) {
    const s = this.rows.find((x) => x.id === id);
    if (!s) return null;
    const i = this.votes.findIndex((v) => v.suggestion_id === id && v.user_id === userId);
    const before = i >= 0 ? this.votes[i].vote : null;
    if (before === 1) s.votes_up -= 1;
    if (before === -1) s.votes_down -= 1;
    if (i >= 0) this.votes.splice(i, 1);
    if (vote !== null) {
      this.votes.push({ suggestion_id: id, user_id: userId, vote, created_at: at });
      if (vote === 1) s.votes_up += 1;
      else s.votes_down += 1;
    }
    s.score = s.votes_up - s.votes_down;
    return before;
  }

  async votesOf(userId: number, ids: number[]) {
    return new Map(this.votes.filter((v) => v.user_id === userId && ids.includes(v.suggestion_id)).map((v) => [v.suggestion_id, v.vote]));
  }

  async addComment(c: Omit<SuggestionCommentRecord, 'id'>) {
    const record = { id: this.nextCommentId++, ...c };
    this.commentRows.push(record);
    const s = this.rows.find((x) => x.id === c.suggestion_id);
    if (s) s.comment_count += 1;
    return { ...record };
  }

  async comments(suggestionId: number, page: PageRequest) {
    return pageOf(
      this.commentRows.filter((c) => c.suggestion_id === suggestionId).sort((a, b) => a.id - b.id),
      page,
    );
  }

  async setStatus(id: number, status: SuggestionStatus, adminResponse: string | null, at: Timestamp) {
    const s = this.rows.find((x) => x.id === id);
    if (s) Object.assign(s, { status, admin_response: adminResponse, updated_at: at });
  }

  async delete(id: number) {
    const i = this.rows.findIndex((x) => x.id === id);
    if (i < 0) return false;
    this.rows.splice(i, 1);
    for (let j = this.votes.length - 1; j >= 0; j--) if (this.votes[j].suggestion_id === id) this.votes.splice(j, 1);
    for (let j = this.commentRows.length - 1; j >= 0; j--) if (this.commentRows[j].suggestion_id === id) this.commentRows.splice(j, 1);
    return true;
  }
}
