import type { EngagementService, PostService } from '@plaza/domain/content';
import { z } from 'zod';
import { paginationQuery, zId } from '../http/fields.js';
import { op, type Script } from '../http/operation.js';
import type { PresenterContext } from '../presenters/context.js';
import { PostItem, presentPost } from '../presenters/post.js';
import { ListPagination, presentPagination, zWireId } from '../presenters/wire.js';

export function bookmarksScript(posts: PostService, engagement: EngagementService, p: PresenterContext): Script {
  return {
    name: 'bookmarks',
    operations: [
      op({
        method: 'GET',
        auth: 'required',
        query: z.object(paginationQuery),
        summary: 'Bookmarked posts, newest bookmark first, under data and bookmarks',
        response: z.object({ data: z.array(PostItem), bookmarks: z.array(PostItem), pagination: ListPagination }),
        handle: async (ctx) => {
          const page = await posts.bookmarks(ctx.actor, ctx.query.page, ctx.query.per_page);
          const data = page.items.map((v) => presentPost(v, p));
          return { data, bookmarks: data, pagination: presentPagination(page) };
        },
      }),
      op({
        method: 'POST',
        auth: 'required',
        body: z.object({ post_id: zId }),
        summary: 'Bookmark a post (twice is not an error)',
        response: z.object({ message: z.string(), post_id: zWireId, is_bookmarked: z.literal(true) }),
        handle: async (ctx) => {
          const added = await engagement.bookmark(ctx.actor, ctx.body.post_id);
          return { message: added ? 'Bookmark added' : 'Already bookmarked', post_id: ctx.body.post_id, is_bookmarked: true as const };
        },
      }),
      op({
        method: 'DELETE',
        auth: 'required',
        query: z.object({ post_id: zId }),
        summary: 'Remove a bookmark',
        response: z.object({ message: z.string(), post_id: zWireId, is_bookmarked: z.literal(false) }),
        handle: async (ctx) => {
          const removed = await engagement.unbookmark(ctx.actor, ctx.query.post_id);
          return { message: removed ? 'Bookmark removed' : 'Not bookmarked', post_id: ctx.query.post_id, is_bookmarked: false as const };
        },
      }),
    ],
  };
}
