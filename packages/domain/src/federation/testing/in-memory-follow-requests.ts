import { offsetOf, type PageRequest } from '../../shared/pagination.js';
import type { NewRemoteFollowRequest, RemoteFollowRequest, RemoteFollowRequestRepository } from '../follow-approval.js';

/** Pending remote Follows in memory: the SQL table's rules (one per user and actor, ids ascending). */
export class InMemoryRemoteFollowRequestRepository implements RemoteFollowRequestRepository {
  private seq = 0;
  private readonly rows: RemoteFollowRequest[] = [];

  async add(request: NewRemoteFollowRequest) {
    const existing = this.rows.find((r) => r.user_id === request.user_id && r.actor_url === request.actor_url);
    if (existing) existing.follow_id = request.follow_id;
    else this.rows.push({ ...request, id: ++this.seq });
    return !existing;
  }
  async find(id: number) {
    const row = this.rows.find((r) => r.id === id);
    return row ? { ...row } : null;
  }
  private removeWhere(match: (r: RemoteFollowRequest) => boolean): boolean {
    const i = this.rows.findIndex(match);
    if (i < 0) return false;
    this.rows.splice(i, 1);
    return true;
  }
  async remove(id: number) {
    return this.removeWhere((r) => r.id === id);
  }
  async removeByActor(userId: number, actorUrl: string) {
    return this.removeWhere((r) => r.user_id === userId && r.actor_url === actorUrl);
  }
  async removeByFollowId(actorUrl: string, followId: string) {
    return this.removeWhere((r) => r.actor_url === actorUrl && r.follow_id === followId);
  }
  async pending(userId: number, page: PageRequest) {
    const mine = this.rows.filter((r) => r.user_id === userId).sort((a, b) => b.id - a.id);
    const start = offsetOf(page);
    return { total: mine.length, items: mine.slice(start, start + page.perPage).map((r) => ({ ...r })) };
  }
}
