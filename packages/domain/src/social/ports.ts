import { token } from '../shared/token.js';
import type { PageRequest } from '../shared/pagination.js';
import type { Timestamp } from '../shared/time.js';

/** One-way follow relation between two local users. */
export interface FollowRepository {
  /** Returns false when the relation already existed (following twice is not an error). */
  follow(followerId: number, followeeId: number, at: Timestamp): Promise<boolean>;
  /** Returns false when there was nothing to remove. */
  unfollow(followerId: number, followeeId: number): Promise<boolean>;
  isFollowing(followerId: number, followeeId: number): Promise<boolean>;
  /** Ids of the followers of a user (newest relation first) and their total. */
  followerIds(userId: number, page: PageRequest): Promise<{ ids: number[]; total: number }>;
  /** Ids of the accounts a user follows (newest relation first) and their total. */
  followingIds(userId: number, page: PageRequest): Promise<{ ids: number[]; total: number }>;
}
export const FollowRepository = token<FollowRepository>('FollowRepository');

export type FriendRequestStatus = 'pending' | 'accepted' | 'rejected';

/** A friend request; an accepted request is the friendship itself. */
export interface FriendRequestRecord {
  id: number;
  sender_id: number;
  receiver_id: number;
  status: FriendRequestStatus;
  created_at: Timestamp;
  responded_at: Timestamp | null;
}

export interface FriendRequestRepository {
  /**
   * Takes, until the unit of work ends, the lock that serializes friend-request decisions between two
   * users, whichever way round they are given: call it as the unit's first step, before reading the
   * requests between them.
   */
  lockPair(a: number, b: number): Promise<void>;
  findById(id: number): Promise<FriendRequestRecord | null>;
  /** The request from `senderId` to `receiverId`, whatever its status (there is at most one). */
  findBetween(senderId: number, receiverId: number): Promise<FriendRequestRecord | null>;
  create(senderId: number, receiverId: number, at: Timestamp): Promise<FriendRequestRecord>;
  /** Sets the status; `pending` also resets created_at (a new request after a rejection). */
  setStatus(id: number, status: FriendRequestStatus, at: Timestamp): Promise<void>;
  /** Removes every accepted request between the two users; false when they were not friends. */
  removeFriendship(a: number, b: number): Promise<boolean>;
  /** Ids of a user's friends, most recent friendship first. */
  friendIds(userId: number, page: PageRequest): Promise<{ ids: number[]; total: number }>;
  /** Pending requests received by a user, newest first. */
  pendingReceived(userId: number, page: PageRequest): Promise<{ items: FriendRequestRecord[]; total: number }>;
}
export const FriendRequestRepository = token<FriendRequestRepository>('FriendRequestRepository');
