import { offsetOf, type PageRequest } from '../../shared/pagination.js';
import type { Timestamp } from '../../shared/time.js';
import { captureState, type Snapshottable } from '../../shared/testing/snapshot.js';
import type { EventRecord, NewEvent } from '../model.js';
import type { EventRepository } from '../ports.js';

export class InMemoryEventRepository implements EventRepository, Snapshottable {
  readonly rows: EventRecord[] = [];
  readonly participants: { event_id: number; user_id: number; created_at: Timestamp }[] = [];
  readonly invites: { event_id: number; user_id: number; invited_by: number; created_at: Timestamp }[] = [];
  private nextId = 1;

  snapshot() {
    const restore = captureState(this.rows, this.participants, this.invites);
    const nextId = this.nextId;
    return () => {
      restore();
      this.nextId = nextId;
    };
  }

  async lock(_id: number) {}

  async create(event: NewEvent) {
    const row: EventRecord = { ...event, id: this.nextId++, participants_count: 1 };
    this.rows.push(row);
    this.participants.push({ event_id: row.id, user_id: event.creator_id, created_at: event.created_at });
    return { ...row };
  }

  async findById(id: number) {
    const row = this.rows.find((e) => e.id === id);
    return row ? { ...row } : null;
  }

  async upcoming(from: string, page: PageRequest) {
    const all = this.rows.filter((e) => e.event_date >= from).sort((a, b) => a.event_date.localeCompare(b.event_date) || a.id - b.id);
    return { items: all.slice(offsetOf(page), offsetOf(page) + page.perPage).map((e) => ({ ...e })), total: all.length };
  }

  async participatingIn(userId: number, eventIds: number[]) {
    return new Set(this.participants.filter((p) => p.user_id === userId && eventIds.includes(p.event_id)).map((p) => p.event_id));
  }

  async join(eventId: number, userId: number, at: Timestamp) {
    const event = this.rows.find((e) => e.id === eventId);
    if (!event || this.participants.some((p) => p.event_id === eventId && p.user_id === userId)) return false;
    this.participants.push({ event_id: eventId, user_id: userId, created_at: at });
    event.participants_count++;
    return true;
  }

  async leave(eventId: number, userId: number) {
    const i = this.participants.findIndex((p) => p.event_id === eventId && p.user_id === userId);
    if (i < 0) return false;
    this.participants.splice(i, 1);
    const event = this.rows.find((e) => e.id === eventId);
    if (event) event.participants_count--;
    return true;
  }

  async invite(eventId: number, userId: number, invitedBy: number, at: Timestamp) {
    if (!this.rows.some((e) => e.id === eventId) || this.invites.some((x) => x.event_id === eventId && x.user_id === userId)) return false;
    this.invites.push({ event_id: eventId, user_id: userId, invited_by: invitedBy, created_at: at });
    return true;
  }

  async delete(id: number) {
    for (const rows of [this.participants, this.invites] as { event_id: number }[][]) {
      for (let i = rows.length - 1; i >= 0; i--) if (rows[i].event_id === id) rows.splice(i, 1);
    }
    const i = this.rows.findIndex((e) => e.id === id);
    if (i >= 0) this.rows.splice(i, 1);
  }
}
