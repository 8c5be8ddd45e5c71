import { captureState, type Snapshottable } from '../../shared/testing/snapshot.js';
import type { SuspensionRecord } from '../model.js';
import type { SuspensionRepository } from '../ports.js';

export class InMemorySuspensionRepository implements SuspensionRepository, Snapshottable {
  readonly rows: SuspensionRecord[] = [];

  snapshot() {
    return captureState(this.rows);
  }

  async suspend(suspension: SuspensionRecord) {
    if (this.rows.some((s) => s.user_id === suspension.user_id)) return false;
    this.rows.push({ ...suspension });
    return true;
  }

  async lift(userId: number) {
    const i = this.rows.findIndex((s) => s.user_id === userId);
    if (i < 0) return null;
    const [removed] = this.rows.splice(i, 1);
    return { ...removed };
  }

  async find(userId: number) {
    const found = this.rows.find((s) => s.user_id === userId);
    return found ? { ...found } : null;
  }

  async suspendedAmong(userIds: number[]) {
    return new Set(userIds.filter((id) => this.rows.some((s) => s.user_id === id)));
  }
}
