import { type EngagementService, REACTION_TYPES } from '@plaza/domain/content';
import { z } from 'zod';
import { zId } from '../http/fields.js';
import { op, type Script } from '../http/operation.js';
import { presentReactionCounts, ReactionCounts } from '../presenters/post.js';
import { zCount, zWireId } from '../presenters/wire.js';

const reacted = z.object({
  message: z.string(),
  post_id: zWireId,
  reaction_type: z.enum(REACTION_TYPES),
  likes_count: zCount,
  is_liked: z.literal(true),
});
const unreacted = z.object({
  message: z.string(),
  post_id: zWireId,
  removed: z.boolean(),
  likes_count: zCount,
  is_liked: z.literal(false),
});

/** Also the library's check (docs/decisions/0113). */
export const reactBody = z.object({ post_id: zId, reaction_type: z.enum(REACTION_TYPES).default('like') });

export function reactionsScript(engagement: EngagementService): Script {
  return {
    name: 'reactions',
    operations: [
      op({
        method: 'GET',
        auth: 'required',
        query: z.object({ post_id: zId }),
        summary: 'Reaction counts of a post, by type',
        response: z.object({
          data: z.object({ post_id: zWireId, counts: ReactionCounts, total: zCount }),
          reactions: ReactionCounts,
          total: zCount,
        }),
        handle: async (ctx) => {
          const counts = presentReactionCounts(await engagement.reactions(ctx.actor, ctx.query.post_id));
          const total = Object.values(counts).reduce((a, b) => a + b, 0);
          return { data: { post_id: ctx.query.post_id, counts, total }, reactions: counts, total };
        },
      }),
      op({
        method: 'POST',
        auth: 'required',
        rateLimit: 'reactions',
        body: reactBody,
        summary: 'React to a post; a new reaction replaces the previous one',
        response: reacted,
        handle: async (ctx) => ({
          message: 'Reaction saved',
          ...(await engagement.react(ctx.actor, ctx.body.post_id, ctx.body.reaction_type)),
          is_liked: true as const,
        }),
      }),
      op({
        method: 'DELETE',
        auth: 'required',
        rateLimit: 'reactions',
        query: z.object({ post_id: zId }),
        summary: 'Remove own reaction from a post',
        response: unreacted,
        handle: async (ctx) => ({
          message: 'Reaction removed',
          ...(await engagement.unreact(ctx.actor, ctx.query.post_id)),
          is_liked: false as const,
        }),
      }),
    ],
  };
}

export function likesScript(engagement: EngagementService): Script {
  return {
    name: 'likes',
    operations: [
      op({
        method: 'POST',
        auth: 'required',
        rateLimit: 'reactions',
        body: z.object({ post_id: zId }),
        summary: 'Like a post (the reaction "like")',
        response: reacted,
        handle: async (ctx) => ({
          message: 'Post liked',
          ...(await engagement.react(ctx.actor, ctx.body.post_id, 'like')),
          is_liked: true as const,
        }),
      }),
      op({
        method: 'DELETE',
        auth: 'required',
        rateLimit: 'reactions',
        query: z.object({ post_id: zId }),
        summary: 'Remove the like',
        response: unreacted,
        handle: async (ctx) => ({
          message: 'Like removed',
          ...(await engagement.unreact(ctx.actor, ctx.query.post_id)),
          is_liked: false as const,
        }),
      }),
    ],
  };
}
