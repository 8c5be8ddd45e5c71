import type { PageRequest } from '../../shared/pagination.js';
import type { Timestamp } from '../../shared/time.js';
import { captureState, type Snapshottable } from '../../shared/testing/snapshot.js';
import { isBanActive, type BanRecord, type WarningRecord } from '../model.js';
import type { SanctionRepository } from '../ports.js';
import { byIdDesc, pageOf } from './paging.js';

export class InMemorySanctionRepository implements SanctionRepository, Snapshottable {
  readonly warningRows: WarningRecord[] = [];
  readonly banRows: BanRecord[] = [];

  snapshot() {
    return captureState(this.warningRows, this.banRows);
  }

  /** One flow of control at a time in memory: nothing to serialize. */
  async lockUser(_userId: number) {}

  async addWarning(warning: Omit<WarningRecord, 'id'>) {
    const record = { id: this.warningRows.length + 1, ...warning };
    this.warningRows.push(record);
    return { ...record };
  }

  async countWarningsAfter(userId: number, after: Timestamp) {
    return this.warningRows.filter((w) => w.user_id === userId && w.created_at > after).length;
  }

  async addBan(ban: Omit<BanRecord, 'id'>) {
    const record = { id: this.banRows.length + 1, ...ban };
    this.banRows.push(record);
    return { ...record };
  }

  async bansOf(userId: number) {
    return this.banRows
      .filter((b) => b.user_id === userId)
      .sort(byIdDesc)
      .map((b) => ({ ...b }));
  }

  async activeBan(userId: number, now: Timestamp) {
    const ban = this.banRows.filter((b) => b.user_id === userId && isBanActive(b, now)).sort(byIdDesc)[0];
    return ban ? { ...ban } : null;
  }

  async warnings(userId: number | null, page: PageRequest) {
    return pageOf(this.warningRows.filter((w) => userId === null || w.user_id === userId).sort(byIdDesc), page);
  }

  async bans(page: PageRequest) {
    return pageOf([...this.banRows].sort(byIdDesc), page);
  }
}
