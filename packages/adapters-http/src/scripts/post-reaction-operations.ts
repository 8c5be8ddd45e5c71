import type { Actor, RateLimitGroup } from '@plaza/domain';
import { REACTION_TYPES, type ReactionType } from '@plaza/domain/content';
import { z } from 'zod';
import { zId } from '../http/fields.js';
import { type AnyOperation, type Infer, op } from '../http/operation.js';
import { zCount, zWireId } from '../presenters/wire.js';

/**
 * Reacting to a post and taking the reaction back, as reactions.php, likes.php and group_reactions.php
 * answer them (contract §11, §21.3): the post's counter after the change, with `is_liked` saying which
 * way it went. The scripts differ only in their bodies, rate-limit groups and messages.
 */
const PostReacted = z.object({
  message: z.string(),
  post_id: zWireId,
  reaction_type: z.enum(REACTION_TYPES),
  likes_count: zCount,
  is_liked: z.literal(true),
});
const PostUnreacted = z.object({
  message: z.string(),
  post_id: zWireId,
  removed: z.boolean(),
  likes_count: zCount,
  is_liked: z.literal(false),
});

/** Which post and which reaction (like by default): reactions.php and group_reactions.php alike. */
export const postReactionBody = z.object({ post_id: zId, reaction_type: z.enum(REACTION_TYPES).default('like') });

/** A surface's reaction as stored, with the post's counter after it (services may return more, which is not answered). */
interface PostReaction {
  post_id: number;
  reaction_type: ReactionType;
  likes_count: number;
}
interface PostUnreaction {
  post_id: number;
  removed: boolean;
  likes_count: number;
}

/** POST: react to the post the body names. */
export function reactToPostOperation<B extends z.ZodObject>(o: {
  rateLimit: RateLimitGroup;
  body: B;
  summary: string;
  message: string;
  react: (actor: Actor, body: Infer<B>) => Promise<PostReaction>;
}): AnyOperation {
  return op({
    method: 'POST',
    auth: 'required',
    rateLimit: o.rateLimit,
    body: o.body,
    summary: o.summary,
    response: PostReacted,
    handle: async (ctx) => {
      const r = await o.react(ctx.actor, ctx.body);
      return {
        message: o.message,
        post_id: r.post_id,
        reaction_type: r.reaction_type,
        likes_count: r.likes_count,
        is_liked: true as const,
      };
    },
  });
}

/** DELETE ?post_id=: take one's reaction back; `message` may depend on whether there was one. */
export function unreactFromPostOperation(o: {
  rateLimit: RateLimitGroup;
  summary: string;
  message: (removed: boolean) => string;
  unreact: (actor: Actor, postId: number) => Promise<PostUnreaction>;
}): AnyOperation {
  return op({
    method: 'DELETE',
    auth: 'required',
    rateLimit: o.rateLimit,
    query: z.object({ post_id: zId }),
    summary: o.summary,
    response: PostUnreacted,
    handle: async (ctx) => {
      const r = await o.unreact(ctx.actor, ctx.query.post_id);
      return {
        message: o.message(r.removed),
        post_id: r.post_id,
        removed: r.removed,
        likes_count: r.likes_count,
        is_liked: false as const,
      };
    },
  });
}
