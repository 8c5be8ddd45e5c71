import type { FollowRepository, FriendRequestRecord, FriendRequestRepository, FriendRequestStatus } from '../ports.js';
import { offsetOf, type PageRequest } from '../../shared/pagination.js';
import type { Timestamp } from '../../shared/time.js';
import { captureState, type Snapshottable } from '../../shared/testing/snapshot.js';

function slice<T>(all: T[], page: PageRequest): T[] {
  return all.slice(offsetOf(page), offsetOf(page) + page.perPage);
}

/** Newest first, ties broken by the higher key. */
function byNewest<T>(at: (x: T) => string | null, key: (x: T) => number) {
  return (a: T, b: T) => (at(b) ?? '').localeCompare(at(a) ?? '') || key(b) - key(a);
}

export class InMemoryFollowRepository implements FollowRepository, Snapshottable {
  readonly edges: { follower_id: number; followee_id: number; created_at: Timestamp }[] = [];
  snapshot() {
    return captureState(this.edges);
  }
  async follow(followerId: number, followeeId: number, at: Timestamp) {
    if (await this.isFollowing(followerId, followeeId)) return false;
    this.edges.push({ follower_id: followerId, followee_id: followeeId, created_at: at });
    return true;
  }
  async unfollow(followerId: number, followeeId: number) {
    const i = this.edges.findIndex((e) => e.follower_id === followerId && e.followee_id === followeeId);
    if (i < 0) return false;
    this.edges.splice(i, 1);
    return true;
  }
  async isFollowing(followerId: number, followeeId: number) {
    return this.edges.some((e) => e.follower_id === followerId && e.followee_id === followeeId);
  }
  async followerIds(userId: number, page: PageRequest) {
    const all = this.edges
      .filter((e) => e.followee_id === userId)
      .sort(
        byNewest(
          (e) => e.created_at,
          (e) => e.follower_id,
        ),
      );
    return { ids: slice(all, page).map((e) => e.follower_id), total: all.length };
  }
  async followingIds(userId: number, page: PageRequest) {
    const all = this.edges
      .filter((e) => e.follower_id === userId)
      .sort(
        byNewest(
          (e) => e.created_at,
          (e) => e.followee_id,
        ),
      );
    return { ids: slice(all, page).map((e) => e.followee_id), total: all.length };
  }
}

export class InMemoryFriendRequestRepository implements FriendRequestRepository, Snapshottable {
  readonly rows: FriendRequestRecord[] = [];
  snapshot() {
    return captureState(this.rows);
  }
  /** One flow of control at a time in memory: nothing to serialize. */
  async lockPair(_a: number, _b: number) {}
  async findById(id: number) {
    const r = this.rows.find((x) => x.id === id);
    return r ? { ...r } : null;
  }
  async findBetween(senderId: number, receiverId: number) {
    const r = this.rows.find((x) => x.sender_id === senderId && x.receiver_id === receiverId);
    return r ? { ...r } : null;
  }
  async create(senderId: number, receiverId: number, at: Timestamp) {
    if (this.rows.some((x) => x.sender_id === senderId && x.receiver_id === receiverId)) throw new Error('duplicate friend request');
    const r: FriendRequestRecord = {
      id: this.rows.length + 1,
      sender_id: senderId,
      receiver_id: receiverId,
      status: 'pending',
      created_at: at,
      responded_at: null,
    };
    this.rows.push(r);
    return { ...r };
  }
  async setStatus(id: number, status: FriendRequestStatus, at: Timestamp) {
    const r = this.rows.find((x) => x.id === id);
    if (!r) return;
    r.status = status;
    if (status === 'pending') {
      r.created_at = at;
      r.responded_at = null;
    } else r.responded_at = at;
  }
  async removeFriendship(a: number, b: number) {
    const before = this.rows.length;
    for (let i = this.rows.length - 1; i >= 0; i--) {
      const r = this.rows[i];
      if (r.status === 'accepted' && ((r.sender_id === a && r.receiver_id === b) || (r.sender_id === b && r.receiver_id === a)))
        this.rows.splice(i, 1);
    }
    return this.rows.length < before;
  }
  async friendIds(userId: number, page: PageRequest) {
    const all = this.rows
      .filter((r) => r.status === 'accepted' && (r.sender_id === userId || r.receiver_id === userId))
      .map((r) => ({ id: r.sender_id === userId ? r.receiver_id : r.sender_id, at: r.responded_at }))
      .sort(
        byNewest(
          (x) => x.at,
          (x) => x.id,
        ),
      );
    return { ids: slice(all, page).map((x) => x.id), total: all.length };
  }
  async pendingReceived(userId: number, page: PageRequest) {
    const all = this.rows
      .filter((r) => r.status === 'pending' && r.receiver_id === userId)
      .sort(
        byNewest(
          (r) => r.created_at,
          (r) => r.id,
        ),
      );
    return { items: slice(all, page).map((r) => ({ ...r })), total: all.length };
  }
}
