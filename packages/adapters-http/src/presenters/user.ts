import type { ProfileView, UserRecord } from '@plaza/domain';
import { isOnline, type PresenterContext } from './context.js';

export interface FederationIdentity {
  /** Public base URL, e.g. https://social.example.org */
  publicUrl: string;
  /** Host part of fediverse handles. */
  domain: string;
}

/** The short author block embedded in posts, comments, messages and the login response. */
export function presentUserSummary(user: Pick<UserRecord, 'id' | 'username' | 'avatar'>) {
  return { id: user.id, username: user.username, avatar: user.avatar ?? 'default.svg', avatar_url: user.avatar ?? 'default.svg' };
}

/** users.php profile, fields at the top level as contract §5.1 lists them. */
export function presentProfile(view: ProfileView, fed: FederationIdentity, p: PresenterContext, remoteCounts = { followers: 0, following: 0 }) {
  const u = view.user;
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
    is_militant_technician: u.is_technician || u.is_admin,
    is_admin: u.is_admin,
    is_moderator: u.is_moderator,
    is_technician: u.is_technician,
    is_private: u.is_private,
    is_online: isOnline(u.last_active_at, p),
    last_active: p.formatTime(u.last_active_at),
    status_emoji: u.status_emoji,
    status_text: u.status_text,
    two_factor_enabled: view.is_self ? u.totp_enabled : undefined,
    posts_count: view.stats.posts_count,
    followers_count: view.stats.followers_count,
    following_count: view.stats.following_count,
    is_following: view.stats.is_following,
    is_followed_by: view.stats.is_followed_by,
    is_friend: view.stats.is_friend,
    sent_request_id: view.stats.sent_request_id,
    received_request_id: view.stats.received_request_id,
    created_at: p.formatTime(u.created_at),
    fediverse_actor_id: `${fed.publicUrl}/fediverse/actor.php?username=${encodeURIComponent(u.username)}`,
    fediverse_handle: `@${u.username}@${fed.domain}`,
    fediverse_followers_count: remoteCounts.followers,
    fediverse_following_count: remoteCounts.following,
    is_remote: false,
    account_type: 'local',
  };
}
