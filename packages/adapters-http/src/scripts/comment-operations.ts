import type { Actor } from '@plaza/domain';
import type { CommentRecord, CommentView, ListPage } from '@plaza/domain/content';
import { z } from 'zod';
import { paginationQuery, zId } from '../http/fields.js';
import { type AnyOperation, op } from '../http/operation.js';
import type { PresenterContext } from '../presenters/context.js';
import { CommentAdded, CommentItem, presentCommentAdded, presentCommentList } from '../presenters/post.js';
import { ListPagination } from '../presenters/wire.js';

/**
 * Reading and writing the threaded comments that comments.php and group_comments.php share (contract
 * §10, §21.2): the same wire shapes over the wall's and the groups' services.
 */

/** A comment, or a reply to a comment of the same post: POST comments.php and group_comments.php. */
export const newCommentBody = (maxLength: number) =>
  z.object({ post_id: zId, content: z.string().max(maxLength), parent_id: zId.optional().nullable() });

/** GET ?post_id=: root comments, a page at a time, each with its replies nested. */
export function commentThreadsOperation(
  summary: string,
  list: (actor: Actor, postId: number, page: { page?: number; perPage?: number }) => Promise<ListPage<CommentView>>,
  p: PresenterContext,
): AnyOperation {
  return op({
    method: 'GET',
    auth: 'required',
    query: z.object({ post_id: zId, ...paginationQuery }),
    summary,
    response: z.object({ data: z.array(CommentItem), comments: z.array(CommentItem), pagination: ListPagination }),
    handle: async (ctx) =>
      presentCommentList(await list(ctx.actor, ctx.query.post_id, { page: ctx.query.page, perPage: ctx.query.per_page }), p),
  });
}

/** POST: a comment or reply, answered as the author's new comment; `status` where the contract requires 201. */
export function addCommentOperation(
  o: {
    status?: number;
    body: ReturnType<typeof newCommentBody>;
    summary: string;
    add: (actor: Actor, input: z.output<ReturnType<typeof newCommentBody>>) => Promise<CommentRecord>;
  },
  p: PresenterContext,
): AnyOperation {
  return op({
    method: 'POST',
    auth: 'required',
    rateLimit: 'comments',
    ...(o.status ? { status: o.status } : {}),
    body: o.body,
    summary: o.summary,
    response: CommentAdded,
    handle: async (ctx) => presentCommentAdded(await o.add(ctx.actor, ctx.body), ctx.actor, p),
  });
}
