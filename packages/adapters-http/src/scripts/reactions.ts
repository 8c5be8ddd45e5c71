import type { EngagementService } from '@plaza/domain/content';
import { z } from 'zod';
import { zId } from '../http/fields.js';
import { op, type Script } from '../http/operation.js';
import { presentReactionCounts, ReactionCounts } from '../presenters/post.js';
import { zCount, zWireId } from '../presenters/wire.js';
import { postReactionBody, reactToPostOperation, unreactFromPostOperation } from './post-reaction-operations.js';

/** Also the library's check (docs/decisions/0113). */
export const reactBody = postReactionBody;

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
      reactToPostOperation({
        rateLimit: 'reactions',
        body: reactBody,
        summary: 'React to a post; a new reaction replaces the previous one',
        message: 'Reaction saved',
        react: (actor, body) => engagement.react(actor, body.post_id, body.reaction_type),
      }),
      unreactFromPostOperation({
        rateLimit: 'reactions',
        summary: 'Remove own reaction from a post',
        message: () => 'Reaction removed',
        unreact: (actor, postId) => engagement.unreact(actor, postId),
      }),
    ],
  };
}

/** likes.php: reactions.php with the reaction "like" only. */
export function likesScript(engagement: EngagementService): Script {
  return {
    name: 'likes',
    operations: [
      reactToPostOperation({
        rateLimit: 'reactions',
        body: z.object({ post_id: zId }),
        summary: 'Like a post (the reaction "like")',
        message: 'Post liked',
        react: (actor, body) => engagement.react(actor, body.post_id, 'like'),
      }),
      unreactFromPostOperation({
        rateLimit: 'reactions',
        summary: 'Remove the like',
        message: () => 'Like removed',
        unreact: (actor, postId) => engagement.unreact(actor, postId),
      }),
    ],
  };
}
