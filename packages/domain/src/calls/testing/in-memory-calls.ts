import { offsetOf, type PageRequest } from '../../shared/pagination.js';
import type { Timestamp } from '../../shared/time.js';
import { captureState, type Snapshottable } from '../../shared/testing/snapshot.js';
import type {
  CallParticipantRecord,
  CallRecord,
  CallSignalRecord,
  CallStatus,
  CallTransition,
  NewCall,
  NewSignal,
  ParticipantStatus,
} from '../model.js';
import type { CallRepository } from '../ports.js';
import type { SignalCursor } from '../signal-cursor.js';

export class InMemoryCallRepository implements CallRepository, Snapshottable {
  readonly calls: CallRecord[] = [];
  readonly participantRows: CallParticipantRecord[] = [];
  readonly signals: CallSignalRecord[] = [];
  private nextId = 1;
  private nextSignalId = 1;

  snapshot() {
    const restore = captureState(this.calls, this.participantRows, this.signals);
    const [nextId, nextSignalId] = [this.nextId, this.nextSignalId];
    return () => {
      restore();
      this.nextId = nextId;
      this.nextSignalId = nextSignalId;
    };
  }

  async lockCall() {
    // One flow of control at a time in memory: nothing to wait for.
  }
  async create(call: NewCall, participants: { user_id: number; status: ParticipantStatus; at: Timestamp }[]) {
    const record: CallRecord = { ...call, id: this.nextId++, status: 'ringing', answer_sdp: null, answered_at: null, ended_at: null };
    this.calls.push(record);
    for (const p of participants) await this.putParticipant(record.id, p.user_id, p.status, p.at);
    return { ...record };
  }
  async findById(id: number) {
    const c = this.calls.find((x) => x.id === id);
    return c ? { ...c } : null;
  }
  async openCallOfGroup(groupId: number) {
    const open = this.calls
      .filter((c) => c.group_id === groupId && (c.status === 'ringing' || c.status === 'active'))
      .sort((a, b) => b.id - a.id);
    return open[0] ? { ...open[0] } : null;
  }
  async participants(callId: number) {
    return this.participantRows
      .filter((p) => p.call_id === callId)
      .sort((a, b) => a.user_id - b.user_id)
      .map((p) => ({ ...p }));
  }
  async participant(callId: number, userId: number) {
    const p = this.participantRows.find((x) => x.call_id === callId && x.user_id === userId);
    return p ? { ...p } : null;
  }
  async putParticipant(callId: number, userId: number, status: ParticipantStatus, at: Timestamp) {
    let row = this.participantRows.find((x) => x.call_id === callId && x.user_id === userId);
    if (!row) {
      row = { call_id: callId, user_id: userId, status, joined_at: null, left_at: null };
      this.participantRows.push(row);
    }
    row.status = status;
    if (status === 'joined') row.joined_at = at;
    if (status === 'left') row.left_at = at;
  }
  async transition(id: number, from: readonly CallStatus[], to: CallTransition) {
    const c = this.calls.find((x) => x.id === id);
    if (!c || !from.includes(c.status)) return false;
    c.status = to.status;
    if (to.answer_sdp !== undefined) c.answer_sdp = to.answer_sdp;
    if (to.answered_at !== undefined) c.answered_at = to.answered_at;
    if (to.ended_at !== undefined) c.ended_at = to.ended_at;
    return true;
  }
  async setSdp(id: number, when: readonly CallStatus[], sdp: { offer_sdp?: string; answer_sdp?: string | null }) {
    const c = this.calls.find((x) => x.id === id);
    if (!c || !when.includes(c.status)) return false;
    if (sdp.offer_sdp !== undefined) c.offer_sdp = sdp.offer_sdp;
    if (sdp.answer_sdp !== undefined) c.answer_sdp = sdp.answer_sdp;
    return true;
  }
  async addSignal(signal: NewSignal) {
    const record: CallSignalRecord = { ...signal, id: this.nextSignalId++ };
    this.signals.push(record);
    return { ...record };
  }
  async signalsFor(callId: number, userId: number, after: SignalCursor | null, limit: number) {
    return this.signals
      .filter(
        (s) =>
          s.call_id === callId &&
          s.from_user_id !== userId &&
          (s.to_user_id === null || s.to_user_id === userId) &&
          (after === null || ('afterId' in after ? s.id > after.afterId : s.created_at > after.afterTime)),
      )
      .sort((a, b) => a.id - b.id)
      .slice(0, limit)
      .map((s) => ({ ...s }));
  }
  async history(userId: number, page: PageRequest) {
    const mine = new Set(this.participantRows.filter((p) => p.user_id === userId).map((p) => p.call_id));
    const all = this.calls.filter((c) => mine.has(c.id)).sort((a, b) => b.id - a.id);
    return { items: all.slice(offsetOf(page), offsetOf(page) + page.perPage).map((c) => ({ ...c })), total: all.length };
  }
  async missRinging(startedBefore: Timestamp, at: Timestamp) {
    let n = 0;
    for (const c of this.calls) {
      if (c.status === 'ringing' && c.created_at <= startedBefore) {
        c.status = 'missed';
        c.ended_at = at;
        n++;
      }
    }
    return n;
  }
}
