import type { UserResult } from '@plaza/domain/discovery';
import type { PostView, SurfacePostView } from '@plaza/domain/content';
import { z } from 'zod';
import { isOnline, type PresenterContext } from './context.js';
import { BookmarkItem, presentSurfacePost } from './bookmark.js';
import { PostItem, presentPost } from './post.js';
import { zAvatar } from './user.js';

/** A user found by search.php (contract §15): the keys the search, mention and group-invite screens read. */
export const SearchUserItem = z.object({
  type: z.literal('user'),
  id: z.number().int().positive(),
  user_id: z.number().int().positive(),
  username: z.string().min(1),
  name: z.string(),
  display_name: z.string(),
  bio: z.string(),
  description: z.string(),
  avatar: zAvatar,
  user_avatar: zAvatar,
  profile_picture: zAvatar,
  is_online: z.boolean(),
  militant_badge: z.string().nullable(),
  is_militant_technician: z.boolean(),
  is_friend: z.boolean(),
});

export function presentSearchUser(r: UserResult, p: PresenterContext): z.input<typeof SearchUserItem> {
  const u = r.user;
  const avatar = u.avatar ?? 'default.svg';
  const bio = u.bio ?? '';
  return {
    type: 'user',
    id: u.id,
    user_id: u.id,
    username: u.username,
    name: u.display_name ?? u.username,
    display_name: u.display_name ?? u.username,
    bio,
    description: bio,
    avatar,
    user_avatar: avatar,
    profile_picture: avatar,
    is_online: isOnline(u.last_active_at, p),
    militant_badge: u.militant_badge,
    is_militant_technician: p.roles(u).technician,
    is_friend: r.is_friend,
  };
}

/**
 * A post found by search.php: the post item of the feeds (contract §35.1) with the keys the search
 * screen reads besides (§15): `user_avatar`, and the first medium as `media_url` and `image`.
 */
export const SearchPostItem = PostItem.omit({ type: true }).extend({
  type: z.literal('post'),
  user_avatar: zAvatar,
  media_url: z.string().nullable(),
  image: z.string().nullable(),
});

export function presentSearchPost(v: PostView, p: PresenterContext): z.input<typeof SearchPostItem> {
  const post = presentPost(v, p);
  const first = post.media[0] ?? null;
  return { ...post, type: 'post', user_avatar: post.avatar, media_url: first, image: post.media_type === 'image' ? first : null };
}

/**
 * A group or page post found by search.php (docs/decisions/0197): the bookmark list's item (the Post
 * of §35.1 with `type` `group` or `page`) with the search screen's keys. They are answered under
 * `group_posts` and `page_posts` only, not in `items`/`data`/`posts`: the app opens every post result
 * through posts.php?id=, where a group or page post's id names another post.
 */
export const SearchSurfacePostItem = BookmarkItem.extend({
  user_avatar: zAvatar,
  media_url: z.string().nullable(),
  image: z.string().nullable(),
});

export function presentSearchSurfacePost(v: SurfacePostView, p: PresenterContext): z.input<typeof SearchSurfacePostItem> {
  const post = presentSurfacePost(v, p);
  const first = post.media[0] ?? null;
  return { ...post, user_avatar: post.avatar, media_url: first, image: post.media_type === 'image' ? first : null };
}
