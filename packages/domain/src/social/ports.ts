import type { Timestamp } from '../shared/time.js';

/** One-way follow relation between two local users. */
export interface FollowRepository {
  /** Returns false when the relation already existed (following twice is not an error). */
  follow(followerId: number, followeeId: number, at: Timestamp): Promise<boolean>;
  /** Returns false when there was nothing to remove. */
  unfollow(followerId: number, followeeId: number): Promise<boolean>;
  isFollowing(followerId: number, followeeId: number): Promise<boolean>;
}
export const FollowRepository = Symbol.for('plaza.FollowRepository');
