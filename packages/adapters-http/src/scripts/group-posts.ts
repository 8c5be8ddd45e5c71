import { GROUP_COMMENT_MAX_LENGTH, GROUP_POST_MAX_LENGTH, type GroupPostService } from '@plaza/domain/groups';
import { z } from 'zod';
import { paginationQuery, zId } from '../http/fields.js';
import { op, type Script } from '../http/operation.js';
import type { PresenterContext } from '../presenters/context.js';
import { GroupPostItem, presentGroupPost } from '../presenters/groups.js';
import { CommentRecordItem, presentCommentRecord } from '../presenters/post.js';
import { ListPagination, presentPagination, zWireId } from '../presenters/wire.js';
import { addCommentOperation, commentThreadsOperation, newCommentBody } from './comment-operations.js';
import { deleteByIdOperation, editOperation } from './edit-and-delete-operations.js';
import { postReactionBody, reactToPostOperation, unreactFromPostOperation } from './post-reaction-operations.js';
import { tagList } from './posts.js';

const media = z.string().max(255);

/** The bodies of publishing, editing, commenting and reacting; also the library's checks (docs/decisions/0113). */
export const newGroupPostBody = z.object({
  group_id: zId,
  content: z.string().max(GROUP_POST_MAX_LENGTH).optional().nullable(),
  media: z
    .union([media, z.array(media).max(10)])
    .optional()
    .nullable(),
  media_type: z.enum(['image', 'video']).optional().nullable(),
  tags: tagList.optional().nullable(),
});
export const editGroupPostBody = z.object({ id: zId, content: z.string().max(GROUP_POST_MAX_LENGTH) });
export const newGroupCommentBody = newCommentBody(GROUP_COMMENT_MAX_LENGTH);
export const editGroupCommentBody = z.object({ id: zId, content: z.string().max(5000) });
export const groupReactBody = postReactionBody;

/** group_posts.php (contract §21.1): a group's posts; creating answers 201, as the client requires. */
export function groupPostsScript(posts: GroupPostService, p: PresenterContext): Script {
  return {
    name: 'group_posts',
    operations: [
      op({
        method: 'GET',
        auth: 'required',
        query: z.object({ group_id: zId, ...paginationQuery }),
        summary: 'A group’s posts, newest first (403 for a non-member of a private group)',
        response: z.object({
          posts: z.array(GroupPostItem),
          data: z.object({ posts: z.array(GroupPostItem), pagination: ListPagination }),
          pagination: ListPagination,
        }),
        handle: async (ctx) => {
          const page = await posts.list(ctx.actor, ctx.query.group_id, { page: ctx.query.page, perPage: ctx.query.per_page });
          const items = page.items.map((v) => presentGroupPost(v, p));
          const pagination = presentPagination(page);
          return { posts: items, data: { posts: items, pagination }, pagination };
        },
      }),
      op({
        method: 'GET',
        select: { has: ['id'] },
        auth: 'required',
        query: z.object({ id: zId }),
        summary: 'One group post',
        response: z.object({ data: GroupPostItem, post: GroupPostItem }),
        handle: async (ctx) => {
          const item = presentGroupPost(await posts.view(ctx.actor, ctx.query.id), p);
          return { data: item, post: item };
        },
      }),
      op({
        method: 'POST',
        auth: 'required',
        rateLimit: 'posts',
        status: 201,
        body: newGroupPostBody,
        summary: 'Publish in a group (members; content or media: one uploaded file name, or a list)',
        response: z.object({ message: z.string(), id: zWireId, post_id: zWireId, data: GroupPostItem, post: GroupPostItem }),
        handle: async (ctx) => {
          const view = await posts.create(ctx.actor, ctx.body);
          const item = presentGroupPost(view, p);
          return { message: 'Post published', id: view.post.id, post_id: view.post.id, data: item, post: item };
        },
      }),
      editOperation({
        rateLimit: 'posts',
        body: editGroupPostBody,
        summary: 'Edit one’s own group post ({id, content})',
        item: GroupPostItem,
        message: 'Post updated',
        edit: async (actor, body) => presentGroupPost(await posts.edit(actor, body.id, body.content), p),
      }),
      deleteByIdOperation({
        rateLimit: 'posts',
        summary: 'Delete a group post with its comments and reactions (its author or a group admin)',
        message: 'Post deleted',
        answersId: true,
        remove: (actor, id) => posts.delete(actor, id),
      }),
    ],
  };
}

/** group_comments.php (contract §21.2): nested comments of group posts; creating answers 201. */
export function groupCommentsScript(posts: GroupPostService, p: PresenterContext): Script {
  return {
    name: 'group_comments',
    operations: [
      commentThreadsOperation(
        'Root comments of a group post, each with nested replies, under data',
        (actor, postId, page) => posts.listComments(actor, postId, page),
        p,
      ),
      addCommentOperation(
        {
          status: 201,
          body: newGroupCommentBody,
          summary: 'Comment on a group post, or reply to a comment of the same post',
          add: (actor, input) => posts.comment(actor, input),
        },
        p,
      ),
      editOperation({
        rateLimit: 'comments',
        body: editGroupCommentBody,
        summary: 'Edit one’s own group comment ({id, content})',
        item: CommentRecordItem,
        message: 'Comment updated',
        edit: async (actor, body) => presentCommentRecord(await posts.editComment(actor, body.id, body.content), p),
      }),
      deleteByIdOperation({
        rateLimit: 'comments',
        summary: 'Delete a group comment with its replies (its author or a group admin)',
        message: 'Comment deleted',
        answersId: true,
        remove: (actor, id) => posts.deleteComment(actor, id),
      }),
    ],
  };
}

/** group_reactions.php (contract §21.3): one reaction per user on a group post. */
export function groupReactionsScript(posts: GroupPostService): Script {
  return {
    name: 'group_reactions',
    operations: [
      reactToPostOperation({
        rateLimit: 'group_reactions',
        body: groupReactBody,
        summary: 'React to a group post (one reaction per user; another type replaces it)',
        message: 'Reaction added',
        react: (actor, body) => posts.react(actor, body.post_id, body.reaction_type),
      }),
      unreactFromPostOperation({
        rateLimit: 'group_reactions',
        summary: 'Remove one’s reaction from a group post',
        message: (removed) => (removed ? 'Reaction removed' : 'No reaction to remove'),
        unreact: (actor, postId) => posts.unreact(actor, postId),
      }),
    ],
  };
}
