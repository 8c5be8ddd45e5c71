import { COMMENT_TYPES, type CommentService, REACTION_TYPES } from '@plaza/domain/content';
import { z } from 'zod';
import { zId } from '../http/fields.js';
import { op, type Script } from '../http/operation.js';
import type { PresenterContext } from '../presenters/context.js';
import { CommentReactionItem, presentCommentReaction } from '../presenters/post.js';
import { zCount, zWireId } from '../presenters/wire.js';

export const commentType = z.enum(COMMENT_TYPES).default('post');

/** Also the library's check (docs/decisions/0113). */
export const commentReactBody = z.object({
  comment_id: zId,
  comment_type: commentType,
  reaction_type: z.enum(REACTION_TYPES).default('like'),
});

export function commentReactionsScript(comments: CommentService, p: PresenterContext): Script {
  return {
    name: 'comment_reactions',
    operations: [
      op({
        method: 'GET',
        auth: 'required',
        query: z.object({ comment_id: zId, comment_type: commentType }),
        summary: 'Reactions of a comment',
        response: z.object({ data: z.array(CommentReactionItem), reactions: z.array(CommentReactionItem), count: zCount }),
        handle: async (ctx) => {
          const rows = await comments.reactions(ctx.actor, ctx.query.comment_type, ctx.query.comment_id);
          const data = rows.map((r) => presentCommentReaction(r, p));
          return { data, reactions: data, count: data.length };
        },
      }),
      op({
        method: 'POST',
        auth: 'required',
        rateLimit: 'comment_reactions',
        body: commentReactBody,
        summary: 'React to a comment of any kind (one reaction per user)',
        response: z.object({
          message: z.string(),
          comment_id: zWireId,
          reaction_type: z.enum(REACTION_TYPES),
          reactions_count: zCount,
          has_reacted: z.literal(true),
        }),
        handle: async (ctx) => ({
          message: 'Reaction added',
          ...(await comments.react(ctx.actor, ctx.body.comment_type, ctx.body.comment_id, ctx.body.reaction_type)),
          has_reacted: true as const,
        }),
      }),
      op({
        method: 'DELETE',
        auth: 'required',
        rateLimit: 'comment_reactions',
        query: z.object({ comment_id: zId, comment_type: commentType }),
        summary: 'Remove own reaction from a comment',
        response: z.object({
          message: z.string(),
          comment_id: zWireId,
          removed: z.boolean(),
          reactions_count: zCount,
          has_reacted: z.literal(false),
        }),
        handle: async (ctx) => ({
          message: 'Reaction removed',
          ...(await comments.unreact(ctx.actor, ctx.query.comment_type, ctx.query.comment_id)),
          has_reacted: false as const,
        }),
      }),
    ],
  };
}
