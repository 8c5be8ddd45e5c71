import { isSurfaceItem, type ListPage, type WallItem } from '@plaza/domain/content';
import { z } from 'zod';
import { BookmarkItem, presentSurfacePost } from './bookmark.js';
import type { PresenterContext } from './context.js';
import { presentPost } from './post.js';
import { ListPagination, presentPagination } from './wire.js';

/**
 * An item of posts.php's walls and feeds: the Post of contract §35.1. A wall post (or its share) is
 * the item every list of wall posts shows (`type` `post`); a share of a group's or page's post is
 * that post's item as the bookmark list shows it (`type` `group` with its `group_id`, or `page`, which
 * the app reads to open, comment and react through the group's or page's scripts), with the sharer
 * in `shared_by_username` and the share's date in `feed_date`, as a wall post's share (docs/decisions/0230).
 */
export const WallListItem = BookmarkItem;

export function presentWallItem(v: WallItem, p: PresenterContext): z.input<typeof WallListItem> {
  return isSurfaceItem(v) ? { ...presentSurfacePost(v, p), shared_by_username: v.shared_by_username } : presentPost(v, p);
}

/** Lists of posts under both `data.posts` and top-level `posts`, as every client reader finds them (§8.1). */
export const WallList = z.object({
  data: z.object({ posts: z.array(WallListItem), pagination: ListPagination }),
  posts: z.array(WallListItem),
});

export function presentWallList(page: ListPage<WallItem>, p: PresenterContext): z.input<typeof WallList> {
  const posts = page.items.map((v) => presentWallItem(v, p));
  return { data: { posts, pagination: presentPagination(page) }, posts };
}
