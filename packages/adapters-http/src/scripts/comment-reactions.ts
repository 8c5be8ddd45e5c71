import { COMMENT_TYPES, REACTION_TYPES, type CommentService } from '@plaza/domain';
import { z } from 'zod';
import { zId } from '../http/fields.js';
import { op, type Script } from '../http/operation.js';
import type { PresenterContext } from '../presenters/context.js';
import { presentUserSummary } from '../presenters/user.js';

const commentType = z.enum(COMMENT_TYPES).default('post');

export function commentReactionsScript(comments: CommentService, p: PresenterContext): Script {
  return {
    name: 'comment_reactions',
    operations: [
      op({
        method: 'GET',
        auth: 'required',
        query: z.object({ comment_id: zId, comment_type: commentType }),
        summary: 'Reactions of a comment',
        handle: async (ctx) => {
          const rows = await comments.reactions(ctx.actor, ctx.query.comment_type, ctx.query.comment_id);
          const data = rows.map((r) => ({ user_id: r.user_id, reaction_type: r.reaction_type, created_at: p.formatTime(r.created_at), user: presentUserSummary(r.author), username: r.author.username }));
          return { data, reactions: data, count: data.length };
        },
      }),
      op({
        method: 'POST',
        auth: 'required',
        rateLimit: 'comment_reactions',
        body: z.object({ comment_id: zId, comment_type: commentType, reaction_type: z.enum(REACTION_TYPES).default('like') }),
        summary: 'React to a comment of any kind (one reaction per user)',
        handle: async (ctx) => ({ message: 'Reaction added', ...(await comments.react(ctx.actor, ctx.body.comment_type, ctx.body.comment_id, ctx.body.reaction_type)), has_reacted: true }),
      }),
      op({
        method: 'DELETE',
        auth: 'required',
        rateLimit: 'comment_reactions',
        query: z.object({ comment_id: zId, comment_type: commentType }),
        summary: 'Remove own reaction from a comment',
        handle: async (ctx) => ({ message: 'Reaction removed', ...(await comments.unreact(ctx.actor, ctx.query.comment_type, ctx.query.comment_id)), has_reacted: false }),
      }),
    ],
  };
}
