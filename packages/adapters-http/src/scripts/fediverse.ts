import { type Actor, pageMeta, pageRequest } from '@plaza/domain';
import { COMMENT_MAX_LENGTH, REACTION_TYPES } from '@plaza/domain/content';
import type { FederationService, OutboundReply, RemoteEngagement, RemoteTarget } from '@plaza/domain/federation';
import { z } from 'zod';
import { paginationQuery, zFlag, zId } from '../http/fields.js';
import { op, type Script } from '../http/operation.js';
import type { PresenterContext } from '../presenters/context.js';
import {
  FediversePost,
  FediverseProfile,
  FollowerItem,
  FollowingItem,
  presentFediversePost,
  presentFediverseProfile,
  presentFollower,
  presentFollowing,
  presentRemoteAccount,
  RemoteAccount,
} from '../presenters/fediverse.js';
import type { FederationIdentity } from '../presenters/user.js';
import { PageMetaWire, wireTime, zTimestamp } from '../presenters/wire.js';

/** `user_id=` may be sent empty, meaning the caller. */
const optionalUserId = z.union([z.literal('').transform(() => undefined), zId]).optional();

/** A handle (`@name@host`) or an actor URL: at most 512 characters, the width of an actor URL key. */
export const zTarget = z.string().trim().min(1, 'must not be empty').max(512, 'must be at most 512 characters');

/** `handle` or `actor_url`, one of them (contract §29: POST JSON body, DELETE JSON body). */
export const targetBody = z
  .object({ handle: zTarget.optional(), actor_url: zTarget.optional() })
  .refine((b) => b.handle !== undefined || b.actor_url !== undefined, { message: 'send handle or actor_url', path: ['actor_url'] });

/** A remote post's URL (its Note id, or a URL that answers with it): http(s), at most the 512 characters of an object key. */
export const zObjectUrl = z
  .string()
  .trim()
  .max(512, 'must be at most 512 characters')
  .regex(/^https?:\/\/[^\s]+$/i, 'must be an http(s) URL');

/** `react_remote`'s body: a remote post and one of the six reactions (`like` when absent, as reactions.php). */
export const remoteReactBody = z.object({ object_url: zObjectUrl, reaction_type: z.enum(REACTION_TYPES).default('like') });
export const remoteObjectBody = z.object({ object_url: zObjectUrl });
/** A reply is a comment's text: at most as long. */
export const remoteReplyBody = z.object({ object_url: zObjectUrl, content: z.string().max(COMMENT_MAX_LENGTH) });
/** A reply of the caller's to a remote post, by the `id` reply_remote answered (docs/decisions/0246). */
export const remoteReplyIdBody = z.object({ reply_id: zId });
export const remoteReplyEditBody = z.object({ reply_id: zId, content: z.string().max(COMMENT_MAX_LENGTH) });

/** A reply to a remote post as fediverse.php answers it (reply_remote, edit_remote_reply). */
const RemoteReplyWire = z.object({
  id: z.number().int(),
  object_url: z.string(),
  note_id: z.string(),
  content: z.string(),
  visibility: z.enum(['public', 'direct']),
  created_at: zTimestamp,
});

const listQuery = z.object({ user_id: optionalUserId, ...paginationQuery });
const me = (actor: Actor, userId: number | undefined) => userId ?? actor.userId;

export function fediverseScript(
  federation: FederationService,
  fed: FederationIdentity,
  p: PresenterContext,
  /** Reactions and replies to remote posts (docs/decisions/0245). */
  engagement: RemoteEngagement,
): Script {
  const target = (b: RemoteTarget): RemoteTarget => ({ handle: b.handle, actor_url: b.actor_url });
  const presentReply = (r: OutboundReply & { note_id: string }) => ({
    id: r.id,
    object_url: r.object_id,
    note_id: r.note_id,
    content: r.content,
    visibility: r.audience === 'public' ? ('public' as const) : ('direct' as const),
    created_at: wireTime(p, r.created_at),
  });
  return {
    name: 'fediverse',
    operations: [
      op({
        method: 'GET',
        select: { action: 'profile' },
        auth: 'required',
        query: z.object({ user_id: optionalUserId }),
        summary: 'Fediverse identity of a user (me without user_id): handle, actor URL, remote follower and following counts',
        response: FediverseProfile,
        handle: async (ctx) => presentFediverseProfile(await federation.profile(ctx.actor, me(ctx.actor, ctx.query.user_id)), fed),
      }),
      op({
        method: 'GET',
        select: { action: 'followers' },
        auth: 'required',
        query: listQuery,
        summary: 'Remote accounts following a user (me without user_id), newest first',
        response: z.object({ followers: z.array(FollowerItem), meta: PageMetaWire }),
        handle: async (ctx) => {
          const req = pageRequest(ctx.query.page, ctx.query.per_page);
          const list = await federation.followers(ctx.actor, me(ctx.actor, ctx.query.user_id), req);
          return {
            followers: list.items.map((f) => presentFollower(f.follower.actor_url, f.actor, f.follower.followed_at, p)),
            meta: pageMeta(req, list.total),
          };
        },
      }),
      op({
        method: 'GET',
        select: { action: 'following' },
        auth: 'required',
        query: listQuery,
        summary: 'Remote accounts a user follows (me without user_id), newest first',
        response: z.object({ following: z.array(FollowingItem), meta: PageMetaWire }),
        handle: async (ctx) => {
          const req = pageRequest(ctx.query.page, ctx.query.per_page);
          const list = await federation.following(ctx.actor, me(ctx.actor, ctx.query.user_id), req);
          return {
            following: list.items.map((f) =>
              presentFollowing(f.following.actor_url, f.actor, f.following.followed_at, f.following.accepted, p),
            ),
            meta: pageMeta(req, list.total),
          };
        },
      }),
      op({
        method: 'GET',
        select: { action: 'feed' },
        auth: 'required',
        query: z.object({ refresh: zFlag.optional(), ...paginationQuery }),
        summary:
          'Stored posts of the followed remote accounts, newest first; refresh=1 pulls their outboxes first (synced_posts counts the new ones)',
        response: z.object({ posts: z.array(FediversePost), meta: PageMetaWire, synced_posts: z.number().int().nonnegative() }),
        handle: async (ctx) => {
          const req = pageRequest(ctx.query.page, ctx.query.per_page);
          const feed = await federation.feed(ctx.actor, req, ctx.query.refresh ?? false);
          return {
            posts: feed.items.map((f) => presentFediversePost(f.post, f.actor, p)),
            meta: pageMeta(req, feed.total),
            synced_posts: feed.synced,
          };
        },
      }),
      op({
        method: 'GET',
        select: { action: 'search_remote' },
        auth: 'required',
        query: z.object({ q: zTarget, ...paginationQuery }),
        summary: 'Finds a remote account by handle (WebFinger) or actor URL',
        response: z.object({ items: z.array(RemoteAccount), meta: PageMetaWire }),
        handle: async (ctx) => {
          const req = pageRequest(ctx.query.page, ctx.query.per_page);
          // One account answers a handle or a URL: the first page holds it, or nothing.
          // An address off the public internet is not "nothing found": its 400 remote_address_refused goes through.
          let found: Awaited<ReturnType<FederationService['lookup']>> | null = null;
          try {
            found = await federation.lookup(ctx.actor, ctx.query.q);
          } catch (error) {
            if ((error as { code?: string }).code !== 'remote_actor_not_found') throw error;
          }
          const items = found && req.page === 1 ? [presentRemoteAccount(found.actor, found.is_following)] : [];
          return { items, meta: pageMeta(req, found ? 1 : 0) };
        },
      }),
      op({
        method: 'GET',
        select: { action: 'remote_profile' },
        auth: 'required',
        query: z.object({
          q: zTarget,
          include_posts: zFlag.optional(),
          posts_limit: z
            .union([
              z.number(),
              z
                .string()
                .regex(/^\d{1,3}$/)
                .transform(Number),
            ])
            .pipe(z.number().int().min(0).max(40))
            .optional(),
        }),
        summary: 'A remote account by handle or actor URL, with its recent public posts',
        response: RemoteAccount.extend({ recent_posts: z.array(FediversePost) }),
        handle: async (ctx) => {
          const limit = ctx.query.include_posts === false ? 0 : (ctx.query.posts_limit ?? 20);
          const r = await federation.remoteProfile(ctx.actor, ctx.query.q, limit);
          return {
            ...presentRemoteAccount(r.actor, r.is_following),
            recent_posts: r.recent_posts.map((post) => presentFediversePost(post, r.actor, p)),
          };
        },
      }),
      op({
        method: 'POST',
        select: { action: 'follow_remote' },
        auth: 'required',
        body: targetBody,
        summary: 'Follows a remote account (handle or actor_url); following twice is not an error',
        response: z.object({ message: z.string(), profile: RemoteAccount }),
        handle: async (ctx) => {
          const r = await federation.followRemote(ctx.actor, target(ctx.body));
          return { message: r.created ? 'Follow request sent' : 'Already following', profile: presentRemoteAccount(r.remote, true) };
        },
      }),
      op({
        method: 'DELETE',
        select: { action: 'unfollow_remote' },
        auth: 'required',
        body: targetBody,
        summary: 'Stops following a remote account (handle or actor_url in the JSON body); not following is not an error',
        // `profile` is merged into the client's account object when present (contract §29): never null.
        response: z.object({ message: z.string(), profile: RemoteAccount.optional() }),
        handle: async (ctx) => {
          const r = await federation.unfollowRemote(ctx.actor, target(ctx.body));
          return {
            message: r.removed ? 'Unfollowed' : 'Not following',
            ...(r.remote ? { profile: presentRemoteAccount(r.remote, false) } : {}),
          };
        },
      }),
      op({
        method: 'POST',
        select: { action: 'react_remote' },
        auth: 'required',
        rateLimit: 'reactions',
        body: remoteReactBody,
        summary:
          'Reacts to a remote post (Like, or EmojiReact for the five other reactions); a new reaction replaces the previous one, the same one changes nothing',
        response: z.object({
          message: z.string(),
          object_url: z.string(),
          reaction_type: z.enum(REACTION_TYPES),
          changed: z.boolean(),
          is_liked: z.literal(true),
        }),
        handle: async (ctx) => {
          const r = await engagement.react(ctx.actor, ctx.body.object_url, ctx.body.reaction_type);
          return { message: r.changed ? 'Reaction sent' : 'Already reacted', ...r, is_liked: true as const };
        },
      }),
      op({
        method: 'DELETE',
        select: { action: 'unreact_remote' },
        auth: 'required',
        rateLimit: 'reactions',
        body: remoteObjectBody,
        summary: 'Takes back the reaction to a remote post (Undo; object_url in the JSON body); none is not an error (removed: false)',
        response: z.object({ message: z.string(), object_url: z.string(), removed: z.boolean(), is_liked: z.literal(false) }),
        handle: async (ctx) => {
          const r = await engagement.unreact(ctx.actor, ctx.body.object_url);
          return { message: r.removed ? 'Reaction removed' : 'No reaction', ...r, is_liked: false as const };
        },
      }),
      op({
        method: 'POST',
        select: { action: 'reply_remote' },
        auth: 'required',
        rateLimit: 'comments',
        body: remoteReplyBody,
        summary:
          "Replies to a remote post (Create(Note) with inReplyTo to its author; a public account's reply to a public post also to the followers)",
        response: z.object({ message: z.string(), reply: RemoteReplyWire }),
        handle: async (ctx) => {
          const r = await engagement.reply(ctx.actor, ctx.body.object_url, ctx.body.content);
          return { message: 'Reply sent', reply: presentReply(r) };
        },
      }),
      op({
        method: 'PUT',
        select: { action: 'edit_remote_reply' },
        auth: 'required',
        rateLimit: 'comments',
        body: remoteReplyEditBody,
        summary: "Edits the caller's reply to a remote post (Update(Note) to the same audience as its Create); another user's reply is 404",
        response: z.object({ message: z.string(), reply: RemoteReplyWire.extend({ updated_at: zTimestamp }) }),
        handle: async (ctx) => {
          const r = await engagement.editReply(ctx.actor, ctx.body.reply_id, ctx.body.content);
          return { message: 'Reply edited', reply: { ...presentReply(r), updated_at: wireTime(p, r.updated_at ?? r.created_at) } };
        },
      }),
      op({
        method: 'DELETE',
        select: { action: 'delete_remote_reply' },
        auth: 'required',
        rateLimit: 'comments',
        body: remoteReplyIdBody,
        summary:
          "Deletes the caller's reply to a remote post (Delete of its Note, to the same audience as its Create); another user's reply is 404",
        response: z.object({ message: z.string(), reply_id: z.number().int(), deleted: z.literal(true) }),
        handle: async (ctx) => {
          const r = await engagement.deleteReply(ctx.actor, ctx.body.reply_id);
          return { message: 'Reply deleted', reply_id: r.id, deleted: true as const };
        },
      }),
    ],
  };
}
