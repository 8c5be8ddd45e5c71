import type { ReactionType } from '../content/model.js';
import type { PageRequest } from '../shared/pagination.js';
import type { Timestamp } from '../shared/time.js';
import { token } from '../shared/token.js';
import type {
  GroupChanges,
  GroupCommentRecord,
  GroupPostRecord,
  GroupRecord,
  GroupRelation,
  GroupRole,
  JoinRequestRecord,
  MembershipRecord,
  NewGroup,
  NewGroupPost,
} from './model.js';

/**
 * Groups, their members, join requests and invitations. Lists return `perPage + 1` rows at most, so
 * the caller knows whether more exist. `members_count` is kept by `addMember` / `removeMember`, each
 * exact under concurrency on its own; decisions that read first (approve, leave as the last admin)
 * take `lock` as the first statement of their unit of work.
 */
export interface GroupRepository {
  /** The group, with its creator as its first admin (members_count 1). */
  create(group: NewGroup): Promise<GroupRecord>;
  findById(id: number): Promise<GroupRecord | null>;
  update(id: number, changes: GroupChanges): Promise<void>;
  /** The group and everything in it: members, requests, invitations, posts, comments and their reactions. */
  delete(id: number): Promise<void>;
  /** Takes the group row's write lock for the rest of the unit of work; false when there is no such group. */
  lock(id: number): Promise<boolean>;
  /** Groups `userId` is a member of, newest membership first, optionally whose name or description contains `q`. */
  listJoined(userId: number, q: string | null, page: PageRequest): Promise<GroupRecord[]>;
  /** Public groups `userId` is not a member of, most members first, optionally matching `q`. */
  listDiscover(userId: number, q: string | null, page: PageRequest): Promise<GroupRecord[]>;
  relation(groupId: number, userId: number): Promise<GroupRelation>;
  /** The relations of one user to several groups at once (lists), absent groups meaning none. */
  relations(groupIds: number[], userId: number): Promise<Map<number, GroupRelation>>;
  /** Adds a member; false (and no count change) when already one. */
  addMember(groupId: number, userId: number, role: GroupRole, at: Timestamp): Promise<boolean>;
  /** Removes a member; false when not one. */
  removeMember(groupId: number, userId: number): Promise<boolean>;
  /** Changes a member's role; false when not a member. */
  setRole(groupId: number, userId: number, role: GroupRole): Promise<boolean>;
  /** Members, admins first, then by joining order. */
  members(groupId: number, page: PageRequest): Promise<MembershipRecord[]>;
  adminIds(groupId: number): Promise<number[]>;
  /** The longest-standing member other than `except`, the heir of a last admin who leaves. */
  longestMember(groupId: number, except: number): Promise<MembershipRecord | null>;
  /** Files a request; false when one is pending already. */
  addRequest(groupId: number, userId: number, at: Timestamp): Promise<boolean>;
  /** Withdraws a pending request; false when there was none. */
  removeRequest(groupId: number, userId: number): Promise<boolean>;
  /** Pending requests, oldest first. */
  requests(groupId: number, page: PageRequest): Promise<JoinRequestRecord[]>;
  /** Records an invitation; false when one is there already. */
  addInvitation(groupId: number, userId: number, invitedBy: number, at: Timestamp): Promise<boolean>;
  removeInvitation(groupId: number, userId: number): Promise<boolean>;
}
export const GroupRepository = token<GroupRepository>('GroupRepository');

/** Posts of groups and their reactions. `posts_count` of the group and `likes_count` of a post are kept here, exactly. */
export interface GroupPostRepository {
  create(post: NewGroupPost): Promise<GroupPostRecord>;
  findById(id: number): Promise<GroupPostRecord | null>;
  update(id: number, changes: { content: string; updated_at: Timestamp }): Promise<void>;
  /** The post with its comments and every reaction on them; false when it was gone already. */
  delete(id: number): Promise<boolean>;
  /** Whether a pending report names the post (reports.php `post_type: "group"`): the moderators then see it. */
  underReport(id: number): Promise<boolean>;
  /** A group's posts, newest first. */
  listByGroup(groupId: number, page: PageRequest): Promise<GroupPostRecord[]>;
  react(postId: number, userId: number, reaction: ReactionType, at: Timestamp): Promise<'added' | 'changed' | 'unchanged'>;
  unreact(postId: number, userId: number): Promise<boolean>;
  /** The user's reaction on each of the posts that has one. */
  reactionsBy(userId: number, postIds: number[]): Promise<Map<number, ReactionType>>;
}
export const GroupPostRepository = token<GroupPostRepository>('GroupPostRepository');

/** Comments of group posts. The post's `comments_count` is kept here, exactly. */
export interface GroupCommentRepository {
  create(comment: Omit<GroupCommentRecord, 'id' | 'updated_at'>): Promise<GroupCommentRecord>;
  findById(id: number): Promise<GroupCommentRecord | null>;
  /**
   * Takes the write locks of the comment's post, then of the comment, for the rest of the unit of work
   * (reactions on it serialise); false when the comment is gone (deleted meanwhile).
   */
  lock(id: number): Promise<boolean>;
  update(id: number, content: string, at: Timestamp): Promise<void>;
  /** The comment, its replies below it and their reactions; false when it was gone already. */
  delete(id: number): Promise<boolean>;
  /** Root comments of a post, oldest first. */
  roots(postId: number, page: PageRequest): Promise<GroupCommentRecord[]>;
  /** Replies to any of `parentIds` within the post, oldest first. */
  replies(postId: number, parentIds: number[]): Promise<GroupCommentRecord[]>;
}
export const GroupCommentRepository = token<GroupCommentRepository>('GroupCommentRepository');
