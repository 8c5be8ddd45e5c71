import { offsetOf, type PageRequest } from '../../shared/pagination.js';
import type { Timestamp } from '../../shared/time.js';
import { captureState, type Snapshottable } from '../../shared/testing/snapshot.js';
import type { GuestStatus, LiveCommentRecord, LiveEndReason, LiveGuestRecord, LiveRecord, LiveReportRecord, NewLive } from '../model.js';
import type { LiveRepository } from '../ports.js';

const page = <T>(all: T[], p: PageRequest) => all.slice(offsetOf(p), offsetOf(p) + p.perPage);

export class InMemoryLiveRepository implements LiveRepository, Snapshottable {
  readonly lives: LiveRecord[] = [];
  readonly viewers = new Map<string, { live_id: number; user_id: number; last_ping_at: Timestamp | null; media_connected: boolean }>();
  readonly guestRows: LiveGuestRecord[] = [];
  readonly moderators: { live_id: number; user_id: number; seq: number }[] = [];
  readonly blocks: { live_id: number; user_id: number; seq: number }[] = [];
  readonly commentRows: LiveCommentRecord[] = [];
  readonly reportRows: LiveReportRecord[] = [];
  private next = { live: 1, comment: 1, report: 1, seq: 1 };

  snapshot() {
    const restore = captureState(this.lives, this.viewers, this.guestRows, this.moderators, this.blocks, this.commentRows, this.reportRows);
    const next = { ...this.next };
    return () => {
      restore();
      this.next = next;
    };
  }

  async lockCreator() {}
  async lockLive() {}
  async create(live: NewLive) {
    const record: LiveRecord = {
      ...live,
      id: this.next.live++,
      status: 'active',
      background_image: null,
      report_count: 0,
      is_suspended: false,
      ended_at: null,
      end_reason: null,
    };
    this.lives.push(record);
    return { ...record };
  }
  async findById(id: number) {
    const l = this.lives.find((x) => x.id === id);
    return l ? { ...l } : null;
  }
  async findByIds(ids: number[]) {
    return this.lives.filter((l) => ids.includes(l.id)).map((l) => ({ ...l }));
  }
  async endActiveOf(userId: number, at: Timestamp, reason: LiveEndReason) {
    const ended: number[] = [];
    for (const l of this.lives) {
      if (l.user_id === userId && l.status === 'active') {
        Object.assign(l, { status: 'ended', ended_at: at, end_reason: reason });
        ended.push(l.id);
      }
    }
    return ended;
  }
  async end(id: number, at: Timestamp, reason: LiveEndReason) {
    const l = this.lives.find((x) => x.id === id);
    if (!l || l.status !== 'active') return false;
    Object.assign(l, { status: 'ended', ended_at: at, end_reason: reason });
    return true;
  }
  async listActive(viewerId: number, p: PageRequest) {
    const all = this.lives.filter((l) => l.status === 'active' && (l.is_public || l.user_id === viewerId)).sort((a, b) => b.id - a.id);
    return { items: page(all, p).map((l) => ({ ...l })), total: all.length };
  }
  async setBackground(id: number, background: string | null) {
    const l = this.lives.find((x) => x.id === id);
    if (l) l.background_image = background;
  }
  private viewer(liveId: number, userId: number) {
    const key = `${liveId}:${userId}`;
    let v = this.viewers.get(key);
    if (!v) {
      v = { live_id: liveId, user_id: userId, last_ping_at: null, media_connected: false };
      this.viewers.set(key, v);
    }
    return v;
  }
  async pingViewer(liveId: number, userId: number, at: Timestamp) {
    this.viewer(liveId, userId).last_ping_at = at;
  }
  async setMediaPresence(liveId: number, userId: number, connected: boolean, _at: Timestamp) {
    this.viewer(liveId, userId).media_connected = connected;
  }
  async viewerCounts(liveIds: number[], pingedSince: Timestamp) {
    const counts = new Map<number, number>();
    for (const v of this.viewers.values()) {
      const live = this.lives.find((l) => l.id === v.live_id);
      if (!liveIds.includes(v.live_id) || !live || live.user_id === v.user_id) continue;
      if (v.media_connected || (v.last_ping_at !== null && v.last_ping_at >= pingedSince))
        counts.set(v.live_id, (counts.get(v.live_id) ?? 0) + 1);
    }
    return counts;
  }
  async guest(liveId: number, userId: number) {
    const g = this.guestRows.find((x) => x.live_id === liveId && x.user_id === userId);
    return g ? { ...g } : null;
  }
  async requestGuest(liveId: number, userId: number, message: string | null, at: Timestamp) {
    let g = this.guestRows.find((x) => x.live_id === liveId && x.user_id === userId);
    if (!g) {
      g = { live_id: liveId, user_id: userId, status: 'pending', message, created_at: at, decided_at: null };
      this.guestRows.push(g);
    } else if (g.status === 'rejected') {
      Object.assign(g, { status: 'pending', message, created_at: at, decided_at: null });
    }
    return { ...g };
  }
  async decideGuest(liveId: number, userId: number, from: readonly GuestStatus[], to: GuestStatus, at: Timestamp) {
    const g = this.guestRows.find((x) => x.live_id === liveId && x.user_id === userId);
    if (!g || !from.includes(g.status)) return false;
    Object.assign(g, { status: to, decided_at: at });
    return true;
  }
  async guests(liveId: number, status: GuestStatus | null, p: PageRequest) {
    const all = this.guestRows
      .filter((g) => g.live_id === liveId && (status === null || g.status === status))
      .sort((a, b) => (a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : a.user_id - b.user_id));
    return { items: page(all, p).map((g) => ({ ...g })), total: all.length };
  }
  async countGuests(liveId: number, status: GuestStatus) {
    return this.guestRows.filter((g) => g.live_id === liveId && g.status === status).length;
  }
  async addModerator(liveId: number, userId: number, _at: Timestamp) {
    if (this.moderators.some((m) => m.live_id === liveId && m.user_id === userId)) return false;
    this.moderators.push({ live_id: liveId, user_id: userId, seq: this.next.seq++ });
    return true;
  }
  async isModerator(liveId: number, userId: number) {
    return this.moderators.some((m) => m.live_id === liveId && m.user_id === userId);
  }
  async moderatorIds(liveId: number) {
    return this.moderators
      .filter((m) => m.live_id === liveId)
      .sort((a, b) => a.seq - b.seq)
      .map((m) => m.user_id);
  }
  async blockChat(liveId: number, userId: number, _at: Timestamp) {
    if (this.blocks.some((m) => m.live_id === liveId && m.user_id === userId)) return false;
    this.blocks.push({ live_id: liveId, user_id: userId, seq: this.next.seq++ });
    return true;
  }
  async isChatBlocked(liveId: number, userId: number) {
    return this.blocks.some((m) => m.live_id === liveId && m.user_id === userId);
  }
  async blockedIds(liveId: number) {
    return this.blocks
      .filter((m) => m.live_id === liveId)
      .sort((a, b) => a.seq - b.seq)
      .map((m) => m.user_id);
  }
  async addComment(c: Omit<LiveCommentRecord, 'id'>) {
    const record = { ...c, id: this.next.comment++ };
    this.commentRows.push(record);
    return { ...record };
  }
  async findComment(id: number) {
    const c = this.commentRows.find((x) => x.id === id);
    return c ? { ...c } : null;
  }
  async comments(liveId: number, p: PageRequest) {
    const newest = this.commentRows.filter((c) => c.live_id === liveId).sort((a, b) => b.id - a.id);
    return {
      items: page(newest, p)
        .reverse()
        .map((c) => ({ ...c })),
      total: newest.length,
    };
  }
  async deleteComment(id: number) {
    const i = this.commentRows.findIndex((c) => c.id === id);
    if (i < 0) return false;
    this.commentRows.splice(i, 1);
    return true;
  }
  async report(report: Omit<LiveReportRecord, 'id'>, suspendAt: number) {
    const live = this.lives.find((l) => l.id === report.live_id);
    if (!live) throw new Error(`no live ${report.live_id}`);
    const added = !this.reportRows.some((r) => r.live_id === report.live_id && r.reporter_id === report.reporter_id);
    if (added) {
      this.reportRows.push({ ...report, id: this.next.report++ });
      live.report_count += 1;
      if (live.report_count >= suspendAt) live.is_suspended = true;
    }
    return { added, report_count: live.report_count, is_suspended: live.is_suspended };
  }
  async reports(p: PageRequest) {
    const all = [...this.reportRows].sort((a, b) => b.id - a.id);
    return { items: page(all, p).map((r) => ({ ...r })), total: all.length };
  }
}
