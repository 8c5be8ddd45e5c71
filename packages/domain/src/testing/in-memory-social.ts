import type { FollowRepository } from '../social/ports.js';
import type { Timestamp } from '../shared/time.js';

export class InMemoryFollowRepository implements FollowRepository {
  readonly edges: { follower_id: number; followee_id: number; created_at: Timestamp }[] = [];
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
}
