import type { IssuedToken, ProfileView, UserRecord } from '@plaza/domain/accounts';
import { z } from 'zod';
import { isOnline, type PresenterContext } from './context.js';
import { zCount, zTimestamp, zWireId, wireTime } from './wire.js';

export interface FederationIdentity {
  /** Public base URL, e.g. https://social.example.org */
  publicUrl: string;
  /** Host part of fediverse handles. */
  domain: string;
}

/** An avatar as emitted: the stored path or URL, `default.svg` when there is none (contract §36.6). */
export const zAvatar = z.string().min(1);

/** The short author block embedded in posts, comments, messages and the login response. */
export const UserSummary = z.object({
  id: zWireId,
  username: z.string(),
  avatar: zAvatar,
  avatar_url: zAvatar,
});

export function presentUserSummary(user: Pick<UserRecord, 'id' | 'username' | 'avatar'>): z.input<typeof UserSummary> {
  return { id: user.id, username: user.username, avatar: user.avatar ?? 'default.svg', avatar_url: user.avatar ?? 'default.svg' };
}

/** A social link or other optional text field of a profile: a string, or null when unset. */
const zOptionalText = z.string().nullable();

/** users.php profile, fields at the top level as contract §5.1 lists them (plus the spec's federation fields). */
export const Profile = z.object({
  id: zWireId,
  user_id: zWireId,
  username: z.string(),
  display_name: z.string(),
  /** Own profile only. */
  email: z.string().optional(),
  avatar: zAvatar,
  banner: zOptionalText,
  bio: z.string(),
  cause: zOptionalText,
  website: zOptionalText,
  twitter: zOptionalText,
  instagram: zOptionalText,
  facebook: zOptionalText,
  tiktok: zOptionalText,
  mastodon: zOptionalText,
  bluesky: zOptionalText,
  location: zOptionalText,
  github: zOptionalText,
  militant_badge: zOptionalText,
  is_militant_technician: z.boolean(),
  is_admin: z.boolean(),
  is_moderator: z.boolean(),
  is_technician: z.boolean(),
  is_private: z.boolean(),
  is_online: z.boolean(),
  /** Null for an account that never authenticated. */
  last_active: zTimestamp.nullable(),
  status_emoji: zOptionalText,
  status_text: zOptionalText,
  /** Own profile only. */
  two_factor_enabled: z.boolean().optional(),
  posts_count: zCount,
  followers_count: zCount,
  following_count: zCount,
  is_following: z.boolean(),
  is_followed_by: z.boolean(),
  is_friend: z.boolean(),
  sent_request_id: zWireId.nullable(),
  received_request_id: zWireId.nullable(),
  created_at: zTimestamp,
  fediverse_actor_id: z.url(),
  fediverse_handle: z.string().regex(/^@[^@\s]+@[^@\s]+$/),
  fediverse_followers_count: zCount,
  fediverse_following_count: zCount,
  is_remote: z.literal(false),
  account_type: z.literal('local'),
});

export function presentProfile(view: ProfileView, fed: FederationIdentity, p: PresenterContext): z.input<typeof Profile> {
  const u = view.user;
  const roles = p.roles(u);
  return {
    id: u.id,
    user_id: u.id,
    username: u.username,
    display_name: u.display_name ?? u.username,
    ...(view.is_self ? { email: u.email } : {}),
    avatar: u.avatar ?? 'default.svg',
    banner: u.banner,
    bio: u.bio ?? '',
    cause: u.cause,
    website: u.website,
    twitter: u.twitter,
    instagram: u.instagram,
    facebook: u.facebook,
    tiktok: u.tiktok,
    mastodon: u.mastodon,
    bluesky: u.bluesky,
    location: u.location,
    github: u.github,
    militant_badge: u.militant_badge,
    is_militant_technician: roles.technician,
    is_admin: roles.admin,
    is_moderator: roles.moderator,
    is_technician: roles.technician,
    is_private: u.is_private,
    is_online: isOnline(u.last_active_at, p),
    last_active: u.last_active_at === null ? null : wireTime(p, u.last_active_at),
    status_emoji: u.status_emoji,
    status_text: u.status_text,
    ...(view.is_self ? { two_factor_enabled: u.totp_enabled } : {}),
    posts_count: view.stats.posts_count,
    followers_count: view.stats.followers_count,
    following_count: view.stats.following_count,
    is_following: view.stats.is_following,
    is_followed_by: view.stats.is_followed_by,
    is_friend: view.stats.is_friend,
    sent_request_id: view.stats.sent_request_id,
    received_request_id: view.stats.received_request_id,
    created_at: wireTime(p, u.created_at),
    fediverse_actor_id: `${fed.publicUrl}/fediverse/actor.php?username=${encodeURIComponent(u.username)}`,
    fediverse_handle: `@${u.username}@${fed.domain}`,
    fediverse_followers_count: view.stats.remote_followers_count,
    fediverse_following_count: view.stats.remote_following_count,
    is_remote: false,
    account_type: 'local',
  };
}

/** A freshly issued bearer token (login, refresh), with the user-id spellings of contract §3.1. */
export const IssuedTokenPayload = z.object({
  token: z.string().min(1),
  token_type: z.literal('Bearer'),
  expires_at: zTimestamp,
  user_id: zWireId,
  user: UserSummary.extend({ user_id: zWireId }),
});

export function presentIssuedToken(issued: IssuedToken, p: PresenterContext): z.input<typeof IssuedTokenPayload> {
  return {
    token: issued.token,
    token_type: 'Bearer',
    expires_at: wireTime(p, issued.expires_at),
    user_id: issued.user.id,
    user: { ...presentUserSummary(issued.user), user_id: issued.user.id },
  };
}
