import type { PostService } from '@plaza/domain/content';
import { z } from 'zod';
import { paginationQuery, zId } from '../http/fields.js';
import { op, type Script } from '../http/operation.js';
import type { PresenterContext } from '../presenters/context.js';
import { PostItem, presentPost } from '../presenters/post.js';
import { presentWallList, WallList } from '../presenters/wall.js';
import { zWireId } from '../presenters/wire.js';

/** Tags as a list, or as one string split at spaces and commas: posts.php and group_posts.php alike. */
export const tagList = z.union([
  z.array(z.string().max(64)).max(30),
  z
    .string()
    .max(2000)
    .transform((s) => s.split(/[\s,]+/).filter(Boolean)),
]);

/** Also the library's check of `posts.create` (docs/decisions/0113). */
export const createBody = z.object({
  content: z.string().max(10_000).optional().nullable(),
  media: z
    .union([
      // An empty name in the list is a file the client meant to send and did not name: a media problem, not an empty post.
      z
        .array(
          z
            .string()
            .max(255)
            .refine((name) => name.trim() !== '', 'must name a file you uploaded'),
        )
        .max(10),
      z
        .string()
        .max(255)
        .transform((s) => (s ? [s] : [])),
    ])
    .optional()
    .nullable(),
  media_type: z.enum(['image', 'video']).optional().nullable(),
  tags: tagList.optional().nullable(),
});

/** Also the library's check (docs/decisions/0113). */
export const editBody = z.object({ content: z.string().max(10_000), tags: tagList.optional().nullable() });

/** Also the library's check (docs/decisions/0113). */
export const feedQuery = z.object({ feed_type: z.enum(['following', 'global', '']).optional(), ...paginationQuery });

export function postsScript(posts: PostService, p: PresenterContext): Script {
  return {
    name: 'posts',
    operations: [
      op({
        method: 'GET',
        select: { has: ['id'] },
        auth: 'required',
        query: z.object({ id: zId }),
        summary: 'One post, under data',
        response: z.object({ data: PostItem }),
        handle: async (ctx) => ({ data: presentPost(await posts.view(ctx.actor, ctx.query.id), p) }),
      }),
      op({
        method: 'GET',
        select: { has: ['user_id'] },
        auth: 'required',
        query: z.object({ user_id: zId, ...paginationQuery }),
        summary: "A user's wall: their posts and shares, newest first",
        response: WallList,
        handle: async (ctx) => presentWallList(await posts.wall(ctx.actor, ctx.query.user_id, ctx.query.page, ctx.query.per_page), p),
      }),
      op({
        method: 'GET',
        auth: 'required',
        query: feedQuery,
        summary: 'Feed: posts and shares of followed accounts and own (default), or feed_type=global',
        response: WallList,
        handle: async (ctx) =>
          presentWallList(
            await posts.feed(ctx.actor, ctx.query.feed_type === 'global' ? 'global' : 'following', ctx.query.page, ctx.query.per_page),
            p,
          ),
      }),
      op({
        method: 'POST',
        auth: 'required',
        rateLimit: 'posts',
        body: createBody,
        summary: 'Create a post (content and/or media file names; hashtags taken from the content)',
        response: z.object({ message: z.string(), post_id: zWireId, id: zWireId, data: PostItem }),
        handle: async (ctx) => {
          const view = await posts.create(ctx.actor, {
            content: ctx.body.content ?? '',
            media: ctx.body.media ?? [],
            media_type: ctx.body.media_type ?? null,
            tags: ctx.body.tags ?? [],
          });
          return { message: 'Post created', post_id: view.post.id, id: view.post.id, data: presentPost(view, p) };
        },
      }),
      op({
        method: 'PUT',
        select: { has: ['id'] },
        auth: 'required',
        rateLimit: 'posts',
        query: z.object({ id: zId }),
        body: editBody,
        summary: 'Edit own post',
        response: z.object({ message: z.string(), data: PostItem }),
        handle: async (ctx) => {
          const view = await posts.edit(ctx.actor, ctx.query.id, { content: ctx.body.content, tags: ctx.body.tags ?? [] });
          return { message: 'Post updated', data: presentPost(view, p) };
        },
      }),
      op({
        method: 'DELETE',
        select: { has: ['id'] },
        auth: 'required',
        rateLimit: 'posts',
        query: z.object({ id: zId }),
        summary: 'Delete a post (author, moderator or admin)',
        response: z.object({ message: z.string() }),
        handle: async (ctx) => {
          await posts.delete(ctx.actor, ctx.query.id);
          return { message: 'Post deleted' };
        },
      }),
    ],
  };
}
