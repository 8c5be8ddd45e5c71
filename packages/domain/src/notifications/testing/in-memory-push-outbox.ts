import type { Timestamp } from '../../shared/time.js';
import { captureState, type Snapshottable } from '../../shared/testing/snapshot.js';
import type { PushMessage } from '../ports.js';
import type { NewPushOutboxEntry, PushOutbox, PushOutboxEntry, PushProvider, PushProviderName } from '../push-delivery.js';

export class InMemoryPushOutbox implements PushOutbox, Snapshottable {
  readonly rows: PushOutboxEntry[] = [];
  private nextId = 1;
  snapshot() {
    const restore = captureState(this.rows);
    const nextId = this.nextId;
    return () => {
      restore();
      this.nextId = nextId;
    };
  }
  async add(entry: NewPushOutboxEntry) {
    const id = this.nextId++;
    this.rows.push(structuredClone({ ...entry, id }));
    return id;
  }
  async find(id: number) {
    const r = this.rows.find((x) => x.id === id);
    return r ? structuredClone(r) : null;
  }
  async due(now: Timestamp, limit: number) {
    return this.rows
      .filter((r) => r.next_attempt_at <= now)
      .sort((a, b) => (a.next_attempt_at < b.next_attempt_at ? -1 : a.next_attempt_at > b.next_attempt_at ? 1 : a.id - b.id))
      .slice(0, limit)
      .map((r) => structuredClone(r));
  }
  async claim(id: number, expected: Timestamp, until: Timestamp) {
    const r = this.rows.find((x) => x.id === id);
    if (!r || r.next_attempt_at !== expected) return false;
    r.next_attempt_at = until;
    return true;
  }
  async reschedule(id: number, attempts: number, next: Timestamp, error: string) {
    const r = this.rows.find((x) => x.id === id);
    if (r) Object.assign(r, { attempts, next_attempt_at: next, last_error: error });
  }
  async remove(id: number) {
    const i = this.rows.findIndex((x) => x.id === id);
    if (i >= 0) this.rows.splice(i, 1);
  }
}

/** A provider that records what it delivered, and fails while `failing` is set. */
export class ScriptedPushProvider implements PushProvider {
  readonly delivered: { userId: number; message: PushMessage }[] = [];
  failing: string | null = null;
  constructor(readonly name: PushProviderName) {}
  async deliver(userId: number, message: PushMessage) {
    if (this.failing) throw new Error(this.failing);
    this.delivered.push({ userId, message });
  }
}
