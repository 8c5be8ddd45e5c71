import type { TypingRepository, TypingTarget } from '../ports.js';
import type { Timestamp } from '../../shared/time.js';
import { captureState, type Snapshottable } from '../../shared/testing/snapshot.js';

export class InMemoryTypingRepository implements TypingRepository, Snapshottable {
  readonly rows = new Map<string, { user_id: number; target: TypingTarget; target_id: number; expires_at: Timestamp }>();
  snapshot() {
    return captureState(this.rows);
  }
  async set(userId: number, target: TypingTarget, targetId: number, expiresAt: Timestamp) {
    this.rows.set(`${userId}:${target}:${targetId}`, { user_id: userId, target, target_id: targetId, expires_at: expiresAt });
  }
  async clear(userId: number, target: TypingTarget, targetId: number) {
    this.rows.delete(`${userId}:${target}:${targetId}`);
  }
  async active(target: TypingTarget, targetId: number, now: Timestamp) {
    return [...this.rows.values()]
      .filter((r) => r.target === target && r.target_id === targetId && r.expires_at > now)
      .map((r) => r.user_id)
      .sort((a, b) => a - b);
  }
  async purge(now: Timestamp) {
    for (const [k, r] of this.rows) if (r.expires_at <= now) this.rows.delete(k);
  }
}
