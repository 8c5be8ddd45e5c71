import type { AuthorInfo, CommentView, ReactionType } from '../content/model.js';
import type { Timestamp } from '../shared/time.js';

/** Community groups (groups.php) and their posts: not the messaging groups of message_groups.php. */
export const GROUP_PRIVACIES = ['public', 'private'] as const;
export type GroupPrivacy = (typeof GROUP_PRIVACIES)[number];

/** `admin` manages the group (requests, roles, kicks, settings); `member` takes part. */
export const GROUP_ROLES = ['admin', 'member'] as const;
export type GroupRole = (typeof GROUP_ROLES)[number];

export const GROUP_NAME_MAX = 100;
export const GROUP_DESCRIPTION_MAX = 2000;
export const GROUP_POST_MAX_LENGTH = 10_000;
export const GROUP_COMMENT_MAX_LENGTH = 5_000;

export interface GroupRecord {
  id: number;
  name: string;
  description: string;
  avatar: string | null;
  cover_image: string | null;
  privacy: GroupPrivacy;
  creator_id: number;
  members_count: number;
  posts_count: number;
  created_at: Timestamp;
  updated_at: Timestamp | null;
}

export type NewGroup = Omit<GroupRecord, 'id' | 'members_count' | 'posts_count' | 'updated_at'>;

export interface GroupChanges {
  name?: string;
  description?: string;
  avatar?: string | null;
  cover_image?: string | null;
  privacy?: GroupPrivacy;
  updated_at: Timestamp;
}

export interface MembershipRecord {
  group_id: number;
  user_id: number;
  role: GroupRole;
  joined_at: Timestamp;
}

/** A pending request to join a private group; approving or rejecting it removes it. */
export interface JoinRequestRecord {
  group_id: number;
  user_id: number;
  created_at: Timestamp;
}

/** What one user is to one group, as far as the visibility rule and the permissions read it. */
export interface GroupRelation {
  role: GroupRole | null;
  invited: boolean;
  requested: boolean;
}

export const NO_RELATION: GroupRelation = { role: null, invited: false, requested: false };

export interface GroupPostRecord {
  id: number;
  group_id: number;
  user_id: number;
  content: string;
  media: string[];
  media_type: string | null;
  tags: string[];
  likes_count: number;
  comments_count: number;
  created_at: Timestamp;
  updated_at: Timestamp | null;
}

export type NewGroupPost = Omit<GroupPostRecord, 'id' | 'likes_count' | 'comments_count' | 'updated_at'>;

/** A group post's comment; `reactions_count` is counted from comment_reactions (type `group`). */
export interface GroupCommentRecord {
  id: number;
  post_id: number;
  group_id: number;
  user_id: number;
  parent_id: number | null;
  content: string;
  created_at: Timestamp;
  updated_at: Timestamp | null;
}

export interface GroupView {
  group: GroupRecord;
  relation: GroupRelation;
}

export interface MemberView {
  membership: MembershipRecord;
  user: AuthorInfo;
}

export interface JoinRequestView {
  request: JoinRequestRecord;
  user: AuthorInfo & { bio: string | null };
}

export interface GroupPostView {
  post: GroupPostRecord;
  author: AuthorInfo;
  is_liked: boolean;
  reaction_type: ReactionType | null;
}

export type { CommentView };
