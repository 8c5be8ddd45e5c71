import { pageRequest } from '@plaza/domain';
import { SEARCH_QUERY_MAX, SEARCH_TYPES, type SearchService } from '@plaza/domain/discovery';
import { z } from 'zod';
import { paginationQuery } from '../http/fields.js';
import { op, type Script } from '../http/operation.js';
import type { PresenterContext } from '../presenters/context.js';
import {
  presentSearchPost,
  presentSearchSurfacePost,
  presentSearchUser,
  SearchPostItem,
  SearchSurfacePostItem,
  SearchUserItem,
} from '../presenters/discovery.js';

/** `q` and `type` of a search, shared with the library's `discovery.search` (docs/decisions/0130). */
export const searchQuery = z.object({
  q: z.string().max(SEARCH_QUERY_MAX, `must be at most ${SEARCH_QUERY_MAX} characters`),
  type: z.enum([...SEARCH_TYPES, '']).optional(),
});
const Item = z.union([SearchUserItem, SearchPostItem]);

/**
 * search.php (contract §15): `q`, `type` all (default), users or posts, `page`. The results are one
 * array under both `items` and `data` (users first, then posts), and each kind under `users` and
 * `posts` too (the group-invite screen reads `users`). Pages apply to each kind. Group and page posts
 * the reader may see come under `group_posts` and `page_posts` only (docs/decisions/0197).
 */
export function searchScript(search: SearchService, p: PresenterContext): Script {
  return {
    name: 'search',
    operations: [
      op({
        method: 'GET',
        auth: 'required',
        query: searchQuery.extend(paginationQuery),
        summary:
          'Search accounts (by the start of the username or display name) and posts (by words, as the reader may see them), best first; type=all (default), users or posts; the results under items and data',
        response: z.object({
          items: z.array(Item),
          data: z.array(Item),
          users: z.array(SearchUserItem),
          posts: z.array(SearchPostItem),
          group_posts: z.array(SearchSurfacePostItem),
          page_posts: z.array(SearchSurfacePostItem),
          query: z.string(),
          type: z.enum(SEARCH_TYPES),
          pagination: z.object({ current_page: z.number().int().positive(), per_page: z.number().int().positive(), has_more: z.boolean() }),
        }),
        handle: async (ctx) => {
          const type = ctx.query.type || 'all';
          const page = pageRequest(ctx.query.page, ctx.query.per_page);
          const found = await search.search(ctx.actor, { q: ctx.query.q, type, page });
          const users = found.users.map((u) => presentSearchUser(u, p));
          const posts = found.posts.map((v) => presentSearchPost(v, p));
          const group_posts = found.group_posts.map((v) => presentSearchSurfacePost(v, p));
          const page_posts = found.page_posts.map((v) => presentSearchSurfacePost(v, p));
          const items = [...users, ...posts];
          return {
            items,
            data: items,
            users,
            posts,
            group_posts,
            page_posts,
            query: ctx.query.q,
            type,
            pagination: {
              current_page: page.page,
              per_page: page.perPage,
              has_more: [users, posts, group_posts, page_posts].some((list) => list.length === page.perPage),
            },
          };
        },
      }),
    ],
  };
}
