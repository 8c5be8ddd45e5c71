import { REACTION_TYPES } from '@plaza/domain/content';
import { GROUP_COMMENT_MAX_LENGTH, GROUP_POST_MAX_LENGTH, type GroupPostService } from '@plaza/domain/groups';
import { z } from 'zod';
import { paginationQuery, zId } from '../http/fields.js';
import { op, type Script } from '../http/operation.js';
import type { PresenterContext } from '../presenters/context.js';
import { GroupPostItem, presentGroupPost } from '../presenters/groups.js';
import { newCommentBody } from './comments.js';
import {
  CommentAdded,
  CommentItem,
  CommentRecordItem,
  presentCommentAdded,
  presentCommentList,
  presentCommentRecord,
} from '../presenters/post.js';
import { ListPagination, presentPagination, zCount, zWireId } from '../presenters/wire.js';

const media = z.string().max(255);
const tagList = z.union([
  z.array(z.string().max(64)).max(30),
  z
    .string()
    .max(2000)
    .transform((s) => s.split(/[\s,]+/).filter(Boolean)),
]);

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
export const groupReactBody = z.object({ post_id: zId, reaction_type: z.enum(REACTION_TYPES).default('like') });

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
      op({
        method: 'PUT',
        auth: 'required',
        rateLimit: 'posts',
        body: editGroupPostBody,
        summary: 'Edit one’s own group post ({id, content})',
        response: z.object({ message: z.string(), data: GroupPostItem }),
        handle: async (ctx) => ({
          message: 'Post updated',
          data: presentGroupPost(await posts.edit(ctx.actor, ctx.body.id, ctx.body.content), p),
        }),
      }),
      op({
        method: 'DELETE',
        auth: 'required',
        rateLimit: 'posts',
        query: z.object({ id: zId }),
        summary: 'Delete a group post with its comments and reactions (its author or a group admin)',
        response: z.object({ message: z.string(), id: zWireId }),
        handle: async (ctx) => {
          await posts.delete(ctx.actor, ctx.query.id);
          return { message: 'Post deleted', id: ctx.query.id };
        },
      }),
    ],
  };
}

/** group_comments.php (contract §21.2): nested comments of group posts; creating answers 201. */
export function groupCommentsScript(posts: GroupPostService, p: PresenterContext): Script {
  return {
    name: 'group_comments',
    operations: [
      op({
        method: 'GET',
        auth: 'required',
        query: z.object({ post_id: zId, ...paginationQuery }),
        summary: 'Root comments of a group post, each with nested replies, under data',
        response: z.object({ data: z.array(CommentItem), comments: z.array(CommentItem), pagination: ListPagination }),
        handle: async (ctx) =>
          presentCommentList(
            await posts.listComments(ctx.actor, ctx.query.post_id, { page: ctx.query.page, perPage: ctx.query.per_page }),
            p,
          ),
      }),
      op({
        method: 'POST',
        auth: 'required',
        rateLimit: 'comments',
        status: 201,
        body: newGroupCommentBody,
        summary: 'Comment on a group post, or reply to a comment of the same post',
        response: CommentAdded,
        handle: async (ctx) => presentCommentAdded(await posts.comment(ctx.actor, ctx.body), ctx.actor, p),
      }),
      op({
        method: 'PUT',
        auth: 'required',
        rateLimit: 'comments',
        body: editGroupCommentBody,
        summary: 'Edit one’s own group comment ({id, content})',
        response: z.object({ message: z.string(), data: CommentRecordItem }),
        handle: async (ctx) => ({
          message: 'Comment updated',
          data: presentCommentRecord(await posts.editComment(ctx.actor, ctx.body.id, ctx.body.content), p),
        }),
      }),
      op({
        method: 'DELETE',
        auth: 'required',
        rateLimit: 'comments',
        query: z.object({ id: zId }),
        summary: 'Delete a group comment with its replies (its author or a group admin)',
        response: z.object({ message: z.string(), id: zWireId }),
        handle: async (ctx) => {
          await posts.deleteComment(ctx.actor, ctx.query.id);
          return { message: 'Comment deleted', id: ctx.query.id };
        },
      }),
    ],
  };
}

/** group_reactions.php (contract §21.3): one reaction per user on a group post. */
export function groupReactionsScript(posts: GroupPostService): Script {
  return {
    name: 'group_reactions',
    operations: [
      op({
        method: 'POST',
        auth: 'required',
        rateLimit: 'group_reactions',
        body: groupReactBody,
        summary: 'React to a group post (one reaction per user; another type replaces it)',
        response: z.object({
          message: z.string(),
          post_id: zWireId,
          reaction_type: z.enum(REACTION_TYPES),
          likes_count: zCount,
          is_liked: z.literal(true),
        }),
        handle: async (ctx) => {
          const r = await posts.react(ctx.actor, ctx.body.post_id, ctx.body.reaction_type);
          return {
            message: 'Reaction added',
            post_id: r.post_id,
            reaction_type: r.reaction_type,
            likes_count: r.likes_count,
            is_liked: true as const,
          };
        },
      }),
      op({
        method: 'DELETE',
        auth: 'required',
        rateLimit: 'group_reactions',
        query: z.object({ post_id: zId }),
        summary: 'Remove one’s reaction from a group post',
        response: z.object({
          message: z.string(),
          post_id: zWireId,
          removed: z.boolean(),
          likes_count: zCount,
          is_liked: z.literal(false),
        }),
        handle: async (ctx) => {
          const r = await posts.unreact(ctx.actor, ctx.query.post_id);
          return {
            message: r.removed ? 'Reaction removed' : 'No reaction to remove',
            post_id: r.post_id,
            removed: r.removed,
            likes_count: r.likes_count,
            is_liked: false as const,
          };
        },
      }),
    ],
  };
}
