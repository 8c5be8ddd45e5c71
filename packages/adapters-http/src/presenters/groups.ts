import type { GroupPostView, GroupView, JoinRequestView, MemberView } from '@plaza/domain/groups';
import { GROUP_PRIVACIES, GROUP_ROLES } from '@plaza/domain/groups';
import { z } from 'zod';
import type { PresenterContext } from './context.js';
import { PostItem, presentPostItem } from './post.js';
import { zAvatar } from './user.js';
import { avatarOf, wireTime, zCount, zTimestamp, zWireId } from './wire.js';

/**
 * A community group as contract §20 reads it, in lists and as the detail alike: `id` and the counters
 * are numbers, `has_pending_request` the string `"pending"` (a boolean would not be recognised) or
 * null, `role` null for a non-member.
 */
export const GroupItem = z.object({
  id: zWireId,
  name: z.string(),
  description: z.string(),
  avatar: z.string().nullable(),
  cover_image: z.string().nullable(),
  privacy: z.enum(GROUP_PRIVACIES),
  creator_id: zWireId,
  members_count: zCount,
  posts_count: zCount,
  is_member: z.boolean(),
  role: z.enum(GROUP_ROLES).nullable(),
  has_pending_request: z.literal('pending').nullable(),
  is_invited: z.boolean(),
  created_at: zTimestamp,
  updated_at: zTimestamp.nullable(),
});

export function presentGroup({ group: g, relation }: GroupView, p: PresenterContext): z.input<typeof GroupItem> {
  return {
    id: g.id,
    name: g.name,
    description: g.description,
    avatar: g.avatar,
    cover_image: g.cover_image,
    privacy: g.privacy,
    creator_id: g.creator_id,
    members_count: g.members_count,
    posts_count: g.posts_count,
    is_member: relation.role !== null,
    role: relation.role,
    has_pending_request: relation.requested ? 'pending' : null,
    is_invited: relation.invited,
    created_at: wireTime(p, g.created_at),
    updated_at: p.formatTime(g.updated_at),
  };
}

/** A member (contract §20: `avatar`, `user_id`, `username`, `role`). */
export const GroupMemberItem = z.object({
  user_id: zWireId,
  id: zWireId,
  username: z.string(),
  avatar: zAvatar,
  role: z.enum(GROUP_ROLES),
  joined_at: zTimestamp,
});

export function presentGroupMember(v: MemberView, p: PresenterContext): z.input<typeof GroupMemberItem> {
  return {
    user_id: v.user.id,
    id: v.user.id,
    username: v.user.username,
    avatar: avatarOf(v.user),
    role: v.membership.role,
    joined_at: wireTime(p, v.membership.joined_at),
  };
}

/** A pending join request (contract §20: `user_id`, `username`, `bio`, `avatar`). */
export const JoinRequestItem = z.object({
  user_id: zWireId,
  username: z.string(),
  bio: z.string(),
  avatar: zAvatar,
  created_at: zTimestamp,
});

export function presentJoinRequest(v: JoinRequestView, p: PresenterContext): z.input<typeof JoinRequestItem> {
  return {
    user_id: v.user.id,
    username: v.user.username,
    bio: v.user.bio ?? '',
    avatar: avatarOf(v.user),
    created_at: wireTime(p, v.request.created_at),
  };
}

/** A group post, a Post of contract §35.1 with `type: "group"` and its `group_id` (keys keep PostItem's order). */
export const GroupPostItem = PostItem.extend({
  type: z.literal('group'),
  group_id: zWireId,
  shared_by_username: z.null(),
});

export function presentGroupPost(v: GroupPostView, p: PresenterContext): z.input<typeof GroupPostItem> {
  // Group posts are not shared or bookmarked (shares.php and bookmarks.php take posts of posts.php).
  const surface = {
    shares_count: 0,
    is_bookmarked: false,
    type: 'group' as const,
    group_id: v.post.group_id,
    feed_date: v.post.created_at,
    shared_by_username: null,
  };
  return presentPostItem(v, surface, p);
}
