import type { UserRecord } from '@plaza/domain/accounts';
import type { FederationProfile, RemoteActor, RemotePost, RemotePostInput } from '@plaza/domain/federation';
import { remoteIdentityOf } from '@plaza/domain/federation';
import { z } from 'zod';
import type { PresenterContext } from './context.js';
import type { FederationIdentity } from './user.js';
import { zAvatar } from './user.js';
import { zCount, zTimestamp, zWireId, wireTime } from './wire.js';

/** fediverse.php's shapes (spec "Federation structures", contract §29 and §35.3). */

const zUrl = z.string().url();

export const FediverseProfile = z.object({
  user_id: zWireId,
  username: z.string(),
  display_name: z.string(),
  avatar: zAvatar,
  actor_id: zUrl,
  actor_url: zUrl,
  fediverse_handle: z.string().regex(/^@[^@\s]+@[^@\s]+$/),
  fediverse_active: z.boolean(),
  followers_count: zCount,
  following_count: zCount,
  is_remote: z.literal(false),
  account_type: z.literal('local'),
});

export function presentFediverseProfile(profile: FederationProfile, fed: FederationIdentity): z.input<typeof FediverseProfile> {
  const u = profile.user;
  const actor = `${fed.publicUrl}/fediverse/actor.php?username=${encodeURIComponent(u.username)}`;
  return {
    user_id: u.id,
    username: u.username,
    display_name: u.display_name ?? u.username,
    avatar: u.avatar ?? 'default.svg',
    actor_id: actor,
    actor_url: actor,
    fediverse_handle: `@${u.username}@${fed.domain}`,
    fediverse_active: true,
    followers_count: profile.followers_count,
    following_count: profile.following_count,
    is_remote: false,
    account_type: 'local',
  };
}

/** The identity of a remote account on the wire: an absent avatar is the empty string the app reads. */
function identity(actorUrl: string, actor: RemoteActor | null) {
  const id = remoteIdentityOf(actorUrl, actor);
  return { ...id, avatar: id.avatar ?? '' };
}

const remoteFlags = { is_remote: z.literal(true), account_type: z.literal('remote') };
const REMOTE = { is_remote: true as const, account_type: 'remote' as const };

export const RemoteAccount = z.object({
  actor_url: zUrl,
  username: z.string(),
  display_name: z.string(),
  domain: z.string(),
  handle: z.string(),
  /** Absolute URL, or empty when the account has none. */
  avatar: z.string(),
  summary: z.string(),
  profile_url: z.string(),
  is_following: z.boolean(),
  ...remoteFlags,
});

export function presentRemoteAccount(actor: RemoteActor, isFollowing: boolean): z.input<typeof RemoteAccount> {
  return { ...identity(actor.actor_url, actor), is_following: isFollowing, ...REMOTE };
}

export const FollowerItem = z.object({
  actor_url: zUrl,
  username: z.string(),
  display_name: z.string(),
  domain: z.string(),
  handle: z.string(),
  avatar: z.string(),
  followed_at: zTimestamp,
  ...remoteFlags,
});

export function presentFollower(
  actorUrl: string,
  actor: RemoteActor | null,
  followedAt: string,
  p: PresenterContext,
): z.input<typeof FollowerItem> {
  const id = identity(actorUrl, actor);
  return {
    actor_url: id.actor_url,
    username: id.username,
    display_name: id.display_name,
    domain: id.domain,
    handle: id.handle,
    avatar: id.avatar,
    followed_at: wireTime(p, followedAt),
    ...REMOTE,
  };
}

export const FollowingItem = RemoteAccount.extend({
  followed_at: zTimestamp,
  /** Whether the remote server accepted the follow yet. */
  accepted: z.boolean(),
});

export function presentFollowing(
  actorUrl: string,
  actor: RemoteActor | null,
  followedAt: string,
  accepted: boolean,
  p: PresenterContext,
): z.input<typeof FollowingItem> {
  return { ...identity(actorUrl, actor), is_following: true, followed_at: wireTime(p, followedAt), accepted, ...REMOTE };
}

/** A remote post (FediversePost, contract §35.3). */
export const FediversePost = z.object({
  id: zWireId.optional(),
  remote_post_id: zUrl,
  original_url: z.string(),
  actor_url: zUrl,
  username: z.string(),
  display_name: z.string(),
  domain: z.string(),
  handle: z.string(),
  avatar: z.string(),
  content: z.string(),
  media_url: z.string().nullable(),
  media_type: z.enum(['image', 'video']).nullable(),
  published_at: zTimestamp,
  created_at: zTimestamp,
  profile_url: z.string(),
  ...remoteFlags,
});

export function presentFediversePost(
  post: RemotePost | RemotePostInput,
  actor: RemoteActor | null,
  p: PresenterContext,
): z.input<typeof FediversePost> {
  const id = identity(post.actor_url, actor);
  return {
    ...('id' in post ? { id: post.id } : {}),
    remote_post_id: post.object_id,
    original_url: post.url,
    actor_url: id.actor_url,
    username: id.username,
    display_name: id.display_name,
    domain: id.domain,
    handle: id.handle,
    avatar: id.avatar,
    content: post.content,
    media_url: post.media_url,
    media_type: post.media_type,
    published_at: wireTime(p, post.published_at),
    created_at: wireTime(p, 'created_at' in post ? post.created_at : post.published_at),
    profile_url: id.profile_url,
    ...REMOTE,
  };
}

export type { UserRecord };
