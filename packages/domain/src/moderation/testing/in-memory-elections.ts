import type { InMemoryUserRepository } from '../../accounts/testing/in-memory-accounts.js';
import { isModerator } from '../../accounts/user.js';
import type { PageRequest } from '../../shared/pagination.js';
import type { Timestamp } from '../../shared/time.js';
import { captureState, type Snapshottable } from '../../shared/testing/snapshot.js';
import type { CandidacyRecord } from '../model.js';
import type { CandidacyRepository, ModeratorRoster } from '../ports.js';
import type { CandidateVote } from '../rules.js';
import { byIdDesc, pageOf } from './paging.js';

const isOpen = (c: CandidacyRecord) => c.status === 'candidate' || c.status === 'elected';
const COUNTER = { for: 'votes_for', against: 'votes_against' } as const;

export class InMemoryCandidacyRepository implements CandidacyRepository, Snapshottable {
  readonly rows: CandidacyRecord[] = [];
  readonly votes: { candidacy_id: number; voter_id: number; vote: CandidateVote; created_at: Timestamp }[] = [];

  snapshot() {
    return captureState(this.rows, this.votes);
  }

  /** One flow of control at a time in memory: nothing to serialize. */
  async lockCandidate(_userId: number) {}

  async create(userId: number, motivation: string, at: Timestamp) {
    if (this.rows.some((c) => c.user_id === userId && isOpen(c))) return null;
    const record: CandidacyRecord = {
      id: this.rows.length + 1,
      user_id: userId,
      motivation,
      status: 'candidate',
      votes_for: 0,
      votes_against: 0,
      created_at: at,
      elected_at: null,
      ended_at: null,
    };
    this.rows.push(record);
    return { ...record };
  }

  async findOpen(userId: number) {
    const c = this.rows.find((x) => x.user_id === userId && isOpen(x));
    return c ? { ...c } : null;
  }

  async findOpenOf(userIds: number[]) {
    return this.rows.filter((c) => userIds.includes(c.user_id) && isOpen(c)).map((c) => ({ ...c }));
  }

  async setVote(candidacyId: number, voterId: number, vote: CandidateVote, at: Timestamp) {
    const c = this.rows.find((x) => x.id === candidacyId);
    if (!c) return null;
    const existing = this.votes.find((v) => v.candidacy_id === candidacyId && v.voter_id === voterId);
    const before = existing?.vote ?? null;
    if (before === vote) return before;
    if (existing) {
      c[COUNTER[existing.vote]] -= 1;
      Object.assign(existing, { vote, created_at: at });
    } else {
      this.votes.push({ candidacy_id: candidacyId, voter_id: voterId, vote, created_at: at });
    }
    c[COUNTER[vote]] += 1;
    return before;
  }

  async votesOf(voterId: number, candidacyIds: number[]) {
    return new Map(
      this.votes.filter((v) => v.voter_id === voterId && candidacyIds.includes(v.candidacy_id)).map((v) => [v.candidacy_id, v.vote]),
    );
  }

  async elect(id: number, at: Timestamp) {
    const c = this.rows.find((x) => x.id === id);
    if (!c || c.status !== 'candidate') return false;
    Object.assign(c, { status: 'elected', elected_at: at });
    return true;
  }

  async close(id: number, status: 'withdrawn' | 'rejected' | 'resigned' | 'revoked', at: Timestamp) {
    const c = this.rows.find((x) => x.id === id);
    if (!c || !isOpen(c)) return false;
    Object.assign(c, { status, ended_at: at });
    return true;
  }

  async candidates(page: PageRequest) {
    return pageOf(this.rows.filter((c) => c.status === 'candidate').sort(byIdDesc), page);
  }
}

/** The role flag lives on the accounts: this fake writes the in-memory users' `is_moderator`. */
export class InMemoryModeratorRoster implements ModeratorRoster {
  constructor(private readonly users: InMemoryUserRepository) {}

  async setModerator(userId: number, on: boolean) {
    const u = this.users.rows.get(userId);
    if (u) u.is_moderator = on;
  }

  async moderatorIds(page: PageRequest) {
    const all = [...this.users.rows.values()].filter((u) => isModerator(u)).sort((a, b) => a.id - b.id);
    return { ids: pageOf(all, page).items.map((u) => u.id), total: all.length };
  }
}
