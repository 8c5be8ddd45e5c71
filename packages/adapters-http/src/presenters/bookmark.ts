import type { BookmarkedView, SurfacePostView } from '@plaza/domain/content';
import { z } from 'zod';
import type { PresenterContext } from './context.js';
import { mediaTypeOf, PostItem, postMediaPath, presentAuthorFields, presentPost } from './post.js';
import { wireTime, zWireId } from './wire.js';

/**
 * An item of bookmarks.php (docs/decisions/0195): the Post of contract §35.1 whatever its surface. A wall
 * post's item is exactly the feeds' (`type` `post`, `group_id` null); a group post's says `type`
 * `group` and its `group_id` (which the app reads to edit, delete and comment through groups.php);
 * a page post's says `type` `page` and carries `page_id`, the one key the feeds' item has not (the app
 * ignores keys it does not know). `shared_by_username` is null: a bookmark is not a share.
 */
export const BookmarkItem = PostItem.extend({
  type: z.enum(['post', 'group', 'page']),
  group_id: zWireId.nullable(),
  /** Only on a page post's item. */
  page_id: zWireId.optional(),
});

export function presentBookmark(item: BookmarkedView, p: PresenterContext): z.input<typeof BookmarkItem> {
  return item.post_type === 'post' ? presentPost(item.view, p) : presentSurfacePost(item.view, p);
}

/** A group or page post in the Post shape of the feeds. */
export function presentSurfacePost(v: SurfacePostView, p: PresenterContext): z.input<typeof BookmarkItem> {
  const post = v.post;
  return {
    id: post.id,
    user_id: post.user_id,
    ...presentAuthorFields(v.author, p),
    content: post.content,
    media: post.media.map(postMediaPath),
    media_type: mediaTypeOf(post.media_type, post.media),
    likes_count: post.likes_count,
    comments_count: post.comments_count,
    shares_count: post.shares_count,
    is_liked: post.reaction_type !== null,
    reaction_type: post.reaction_type,
    is_bookmarked: v.is_bookmarked,
    tags: post.tags,
    type: post.post_type,
    group_id: post.group_id,
    ...(post.page_id !== null ? { page_id: post.page_id } : {}),
    created_at: wireTime(p, post.created_at),
    updated_at: p.formatTime(post.updated_at),
    feed_date: wireTime(p, v.feed_date),
    shared_by_username: null,
  };
}
