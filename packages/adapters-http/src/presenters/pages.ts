import { REACTION_TYPES } from '@plaza/domain/content';
import {
  PAGE_PRIVACIES,
  PAGE_ROLES,
  type PageCommentView,
  type PagePersonView,
  type PagePostView,
  type PageView,
} from '@plaza/domain/pages';
import { z } from 'zod';
import type { PresenterContext } from './context.js';
import { zAvatar } from './user.js';
import { avatarOf, nameOf, zCount, zTimestamp, zWireId, wireTime } from './wire.js';

/** A page in a list (contract §22.1): `followers_count` and its alias `follower_count`. */
export const PageListItem = z.object({
  id: zWireId,
  name: z.string(),
  description: z.string(),
  category: z.string(),
  avatar: zAvatar,
  cover_image: z.string().nullable(),
  privacy: z.enum(PAGE_PRIVACIES),
  followers_count: zCount,
  follower_count: zCount,
  is_followed: z.boolean(),
  user_role: z.enum(PAGE_ROLES).nullable(),
  created_at: zTimestamp,
});

/** A page's details (contract §22.1). */
export const PageDetailsItem = PageListItem.extend({
  location: z.string(),
  website: z.string(),
  social_twitter: z.string(),
  social_mastodon: z.string(),
  social_instagram: z.string(),
  social_tiktok: z.string(),
  social_facebook: z.string(),
  social_bluesky: z.string(),
  created_by: zWireId,
  updated_at: zTimestamp.nullable(),
});

export function presentPageListItem(v: PageView, p: PresenterContext): z.input<typeof PageListItem> {
  const page = v.page;
  return {
    id: page.id,
    name: page.name,
    description: page.description,
    category: page.category,
    avatar: page.avatar ?? 'default.svg',
    cover_image: page.cover_image,
    privacy: page.privacy,
    followers_count: page.followers_count,
    follower_count: page.followers_count,
    is_followed: v.is_followed,
    user_role: v.role,
    created_at: wireTime(p, page.created_at),
  };
}

export function presentPageDetails(v: PageView, p: PresenterContext): z.input<typeof PageDetailsItem> {
  const page = v.page;
  return {
    ...presentPageListItem(v, p),
    location: page.location,
    website: page.website,
    social_twitter: page.social_twitter,
    social_mastodon: page.social_mastodon,
    social_instagram: page.social_instagram,
    social_tiktok: page.social_tiktok,
    social_facebook: page.social_facebook,
    social_bluesky: page.social_bluesky,
    created_by: page.created_by,
    updated_at: p.formatTime(page.updated_at),
  };
}

/** A page post (contract §22.1): `like_count` and `comment_count`, singular; `media` a bare name. */
export const PagePostItem = z.object({
  id: zWireId,
  page_id: zWireId,
  user_id: zWireId,
  username: z.string(),
  avatar: zAvatar,
  content: z.string(),
  media: z.string().nullable(),
  media_type: z.string().nullable(),
  like_count: zCount,
  comment_count: zCount,
  user_reaction: z.union([z.literal(''), z.enum(REACTION_TYPES)]),
  type: z.literal('page'),
  created_at: zTimestamp,
  updated_at: zTimestamp.nullable(),
});

export function presentPagePost(v: PagePostView, p: PresenterContext): z.input<typeof PagePostItem> {
  const { id, page_id, user_id, content, media, media_type, like_count, comment_count } = v.post;
  return {
    id,
    page_id,
    user_id,
    username: nameOf(v.author),
    avatar: avatarOf(v.author),
    content,
    media,
    media_type,
    like_count,
    comment_count,
    user_reaction: v.user_reaction ?? '',
    type: 'page',
    created_at: wireTime(p, v.post.created_at),
    updated_at: p.formatTime(v.post.updated_at),
  };
}

/** A comment of a page post (contract §22.1): `user_avatar`, plus what comment_reactions.php toggles on. */
export const PageCommentItem = z.object({
  id: zWireId,
  post_id: zWireId,
  user_id: zWireId,
  username: z.string(),
  user_avatar: zAvatar,
  avatar: zAvatar,
  content: z.string(),
  reactions_count: zCount,
  has_reacted: z.boolean(),
  created_at: zTimestamp,
  updated_at: zTimestamp.nullable(),
});

export function presentPageComment(v: PageCommentView, p: PresenterContext): z.input<typeof PageCommentItem> {
  const c = v.comment;
  const avatar = avatarOf(v.author);
  return {
    id: c.id,
    post_id: c.post_id,
    user_id: c.user_id,
    username: v.author.username,
    user_avatar: avatar,
    avatar,
    content: c.content,
    reactions_count: c.reactions_count,
    has_reacted: v.has_reacted,
    created_at: wireTime(p, c.created_at),
    updated_at: p.formatTime(c.updated_at),
  };
}

/** A follower (contract §22.1): `id` is the user's, for remove_follower. */
export const PageFollowerItem = z.object({
  id: zWireId,
  user_id: zWireId,
  username: z.string(),
  avatar: zAvatar,
  cause: z.string(),
  followed_at: zTimestamp,
});

export function presentPageFollower(v: PagePersonView, p: PresenterContext): z.input<typeof PageFollowerItem> {
  return {
    id: v.user.id,
    user_id: v.user.id,
    username: v.user.username,
    avatar: avatarOf(v.user),
    cause: v.user.cause ?? '',
    followed_at: wireTime(p, v.since),
  };
}

/** A member of the team (contract §22.1). */
export const PageTeamItem = z.object({
  user_id: zWireId,
  username: z.string(),
  avatar: zAvatar,
  role: z.enum(PAGE_ROLES),
  added_at: zTimestamp,
});

export function presentPageTeamMember(v: PagePersonView, p: PresenterContext): z.input<typeof PageTeamItem> {
  return { user_id: v.user.id, username: v.user.username, avatar: avatarOf(v.user), role: v.role!, added_at: wireTime(p, v.since) };
}
