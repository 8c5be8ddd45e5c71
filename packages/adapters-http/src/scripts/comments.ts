import { COMMENT_MAX_LENGTH, type CommentService } from '@plaza/domain/content';
import { z } from 'zod';
import { zId } from '../http/fields.js';
import type { Script } from '../http/operation.js';
import type { PresenterContext } from '../presenters/context.js';
import { CommentRecordItem, presentCommentRecord } from '../presenters/post.js';
import { addCommentOperation, commentThreadsOperation, newCommentBody } from './comment-operations.js';
import { deleteByIdOperation, editOperation } from './edit-and-delete-operations.js';

/** The library's check of a new comment (docs/decisions/0113); POST comments.php and group_comments.php share it. */
export { newCommentBody };

/** Also the library's check (docs/decisions/0113). */
export const editCommentBody = z.object({ content: z.string().max(5000) });

export function commentsScript(comments: CommentService, p: PresenterContext): Script {
  return {
    name: 'comments',
    operations: [
      commentThreadsOperation(
        'Root comments of a post, each with nested replies, under data',
        (actor, postId, page) => comments.list(actor, postId, page.page, page.perPage),
        p,
      ),
      addCommentOperation(
        {
          body: newCommentBody(COMMENT_MAX_LENGTH),
          summary: 'Comment on a post, or reply to a comment of the same post',
          add: (actor, input) => comments.create(actor, input),
        },
        p,
      ),
      editOperation({
        rateLimit: 'comments',
        query: z.object({ id: zId }),
        body: editCommentBody,
        summary: 'Edit own comment',
        item: CommentRecordItem,
        message: 'Comment updated',
        edit: async (actor, body, query) => presentCommentRecord(await comments.edit(actor, query.id, body.content), p),
      }),
      deleteByIdOperation({
        rateLimit: 'comments',
        summary: 'Delete own comment (or any, for moderators) with its replies',
        message: 'Comment deleted',
        remove: (actor, id) => comments.delete(actor, id),
      }),
    ],
  };
}
