import type { PageRequest } from '../../shared/pagination.js';
import type { Timestamp } from '../../shared/time.js';
import { captureState, type Snapshottable } from '../../shared/testing/snapshot.js';
import type { ModerationActionRecord, NewModerationAction, NewReport, ReportDecision, ReportRecord } from '../model.js';
import type { ModerationLog, ReportRepository, ReportTarget } from '../ports.js';
import type { ReportOutcome } from '../rules.js';
import { byIdDesc, pageOf } from './paging.js';

const COUNTER = { remove: 'votes_remove', warn: 'votes_warn', keep: 'votes_keep' } as const;

function sameTarget(r: ReportRecord, target: ReportTarget): boolean {
  return 'post_id' in target
    ? r.post_id === target.post_id && r.post_type === target.post_type
    : r.post_id === null && r.user_id === target.user_id;
}

export class InMemoryReportRepository implements ReportRepository, Snapshottable {
  readonly rows: ReportRecord[] = [];
  readonly votes: { report_id: number; voter_id: number; vote: ReportOutcome; created_at: Timestamp }[] = [];
  private nextId = 1;

  snapshot() {
    const restore = captureState(this.rows, this.votes);
    const nextId = this.nextId;
    return () => {
      restore();
      this.nextId = nextId;
    };
  }

  /** One flow of control at a time in memory: nothing to serialize. */
  async lock(_id: number) {}

  async create(report: NewReport) {
    const target: ReportTarget =
      report.post_id !== null ? { post_id: report.post_id, post_type: report.post_type } : { user_id: report.user_id! };
    if (this.rows.some((r) => r.status === 'pending' && r.reporter_id === report.reporter_id && sameTarget(r, target))) return null;
    const record: ReportRecord = {
      id: this.nextId++,
      ...report,
      status: 'pending',
      votes_remove: 0,
      votes_warn: 0,
      votes_keep: 0,
      resolution: null,
      resolved_by: null,
      resolved_at: null,
    };
    this.rows.push(record);
    return { ...record };
  }

  async findById(id: number) {
    const r = this.rows.find((x) => x.id === id);
    return r ? { ...r } : null;
  }

  async findPending(reporterId: number, target: ReportTarget) {
    const r = this.rows.find((x) => x.status === 'pending' && x.reporter_id === reporterId && sameTarget(x, target));
    return r ? { ...r } : null;
  }

  async list(status: 'pending' | 'resolved', reporterId: number | null, page: PageRequest) {
    return pageOf(
      this.rows.filter((r) => r.status === status && (reporterId === null || r.reporter_id === reporterId)).sort(byIdDesc),
      page,
    );
  }

  async aboutUser(userId: number, page: PageRequest) {
    return pageOf(this.rows.filter((r) => r.target_user_id === userId).sort(byIdDesc), page);
  }

  async setVote(reportId: number, voterId: number, vote: ReportOutcome | null, at: Timestamp) {
    const report = this.rows.find((r) => r.id === reportId);
    if (!report) return null;
    const i = this.votes.findIndex((v) => v.report_id === reportId && v.voter_id === voterId);
    const before = i >= 0 ? this.votes[i].vote : null;
    if (before) report[COUNTER[before]] -= 1;
    if (i >= 0) this.votes.splice(i, 1);
    if (vote) {
      this.votes.push({ report_id: reportId, voter_id: voterId, vote, created_at: at });
      report[COUNTER[vote]] += 1;
    }
    return before;
  }

  async votesOf(voterId: number, reportIds: number[]) {
    return new Map(this.votes.filter((v) => v.voter_id === voterId && reportIds.includes(v.report_id)).map((v) => [v.report_id, v.vote]));
  }

  async resolve(id: number, decision: ReportDecision) {
    const r = this.rows.find((x) => x.id === id);
    if (!r || r.status !== 'pending') return false;
    Object.assign(r, { status: 'resolved', ...decision });
    return true;
  }

  async resolvePendingOnPost(target: { post_id: number; post_type: ReportRecord['post_type'] }, decision: ReportDecision) {
    const pending = this.rows.filter((r) => r.status === 'pending' && sameTarget(r, target));
    for (const r of pending) Object.assign(r, { status: 'resolved', ...decision });
    return pending.length;
  }

  async cancel(id: number, _at: Timestamp) {
    const r = this.rows.find((x) => x.id === id);
    if (!r || r.status !== 'pending') return false;
    r.status = 'cancelled';
    return true;
  }
}

export class InMemoryModerationLog implements ModerationLog, Snapshottable {
  readonly rows: ModerationActionRecord[] = [];
  snapshot() {
    return captureState(this.rows);
  }
  async record(action: NewModerationAction) {
    const record = { id: this.rows.length + 1, ...action };
    this.rows.push(record);
    return { ...record };
  }
  async list(page: PageRequest) {
    return pageOf([...this.rows].sort(byIdDesc), page);
  }
}
