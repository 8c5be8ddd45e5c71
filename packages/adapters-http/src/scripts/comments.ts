import { COMMENT_MAX_LENGTH, type CommentService } from '@plaza/domain/content';
import { z } from 'zod';
import { paginationQuery, zId } from '../http/fields.js';
import { op, type Script } from '../http/operation.js';
import type { PresenterContext } from '../presenters/context.js';
import {
  CommentAdded,
  CommentItem,
  CommentRecordItem,
  presentCommentAdded,
  presentCommentList,
  presentCommentRecord,
} from '../presenters/post.js';
import { ListPagination } from '../presenters/wire.js';

/** A comment, or a reply to a comment of the same post: POST comments.php and group_posts.php?action=comment. */
export const newCommentBody = (maxLength: number) =>
  z.object({ post_id: zId, content: z.string().max(maxLength), parent_id: zId.optional().nullable() });

/** Also the library's check (docs/decisions/0113). */
export const editCommentBody = z.object({ content: z.string().max(5000) });

export function commentsScript(comments: CommentService, p: PresenterContext): Script {
  return {
    name: 'comments',
    operations: [
      op({
        method: 'GET',
        auth: 'required',
        query: z.object({ post_id: zId, ...paginationQuery }),
        summary: 'Root comments of a post, each with nested replies, under data',
        response: z.object({ data: z.array(CommentItem), comments: z.array(CommentItem), pagination: ListPagination }),
        handle: async (ctx) => presentCommentList(await comments.list(ctx.actor, ctx.query.post_id, ctx.query.page, ctx.query.per_page), p),
      }),
      op({
        method: 'POST',
        auth: 'required',
        rateLimit: 'comments',
        body: newCommentBody(COMMENT_MAX_LENGTH),
        summary: 'Comment on a post, or reply to a comment of the same post',
        response: CommentAdded,
        handle: async (ctx) => presentCommentAdded(await comments.create(ctx.actor, ctx.body), ctx.actor, p),
      }),
      op({
        method: 'PUT',
        auth: 'required',
        rateLimit: 'comments',
        query: z.object({ id: zId }),
        body: editCommentBody,
        summary: 'Edit own comment',
        response: z.object({ message: z.string(), data: CommentRecordItem }),
        handle: async (ctx) => ({
          message: 'Comment updated',
          data: presentCommentRecord(await comments.edit(ctx.actor, ctx.query.id, ctx.body.content), p),
        }),
      }),
      op({
        method: 'DELETE',
        auth: 'required',
        rateLimit: 'comments',
        query: z.object({ id: zId }),
        summary: 'Delete own comment (or any, for moderators) with its replies',
        response: z.object({ message: z.string() }),
        handle: async (ctx) => {
          await comments.delete(ctx.actor, ctx.query.id);
          return { message: 'Comment deleted' };
        },
      }),
    ],
  };
}
