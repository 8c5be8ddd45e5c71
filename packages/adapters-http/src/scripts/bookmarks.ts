import { POST_TYPES, type SurfaceEngagementService } from '@plaza/domain/content';
import { z } from 'zod';
import { paginationQuery, zId } from '../http/fields.js';
import { op, type Script } from '../http/operation.js';
import { BookmarkItem, presentBookmark } from '../presenters/bookmark.js';
import type { PresenterContext } from '../presenters/context.js';
import { ListPagination, presentPagination, zWireId } from '../presenters/wire.js';

/**
 * Which kind of post a bookmark or share names (docs/decisions/0195): absent or `post` a wall post (what
 * the app sends today), `group` a group post, `page` a page post; anything else is a 400.
 */
export const postTypeField = z.enum(POST_TYPES).optional();

/**
 * bookmarks.php (contract §9): the list holds bookmarked posts of every surface the reader may still
 * see; POST and DELETE take an optional `post_type` beside `post_id`.
 */
export function bookmarksScript(engagement: SurfaceEngagementService, p: PresenterContext): Script {
  return {
    name: 'bookmarks',
    operations: [
      op({
        method: 'GET',
        auth: 'required',
        query: z.object(paginationQuery),
        summary: 'Bookmarked posts, newest bookmark first, under data and bookmarks',
        response: z.object({ data: z.array(BookmarkItem), bookmarks: z.array(BookmarkItem), pagination: ListPagination }),
        handle: async (ctx) => {
          const page = await engagement.bookmarks(ctx.actor, ctx.query.page, ctx.query.per_page);
          const data = page.items.map((v) => presentBookmark(v, p));
          return { data, bookmarks: data, pagination: presentPagination(page) };
        },
      }),
      op({
        method: 'POST',
        auth: 'required',
        body: z.object({ post_id: zId, post_type: postTypeField }),
        summary: 'Bookmark a post (twice is not an error); post_type group or page for a group or page post',
        response: z.object({ message: z.string(), post_id: zWireId, is_bookmarked: z.literal(true) }),
        handle: async (ctx) => {
          const added = await engagement.bookmark(ctx.actor, ctx.body.post_id, ctx.body.post_type);
          return { message: added ? 'Bookmark added' : 'Already bookmarked', post_id: ctx.body.post_id, is_bookmarked: true as const };
        },
      }),
      op({
        method: 'DELETE',
        auth: 'required',
        query: z.object({ post_id: zId, post_type: postTypeField }),
        summary: 'Remove a bookmark',
        response: z.object({ message: z.string(), post_id: zWireId, is_bookmarked: z.literal(false) }),
        handle: async (ctx) => {
          const removed = await engagement.unbookmark(ctx.actor, ctx.query.post_id, ctx.query.post_type);
          return { message: removed ? 'Bookmark removed' : 'Not bookmarked', post_id: ctx.query.post_id, is_bookmarked: false as const };
        },
      }),
    ],
  };
}
