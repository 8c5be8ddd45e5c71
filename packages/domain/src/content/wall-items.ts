import type { Timestamp } from '../shared/time.js';
import type { FeedEntry, PostView } from './model.js';
import type { PostRepository } from './ports.js';
import type { SurfacePostType } from './surface-engagement-ports.js';
import type { SurfacePostView, SurfacePostViews } from './surface-engagement-service.js';

/** A share of a group's or a page's post on a wall, as a list shows it (docs/decisions/0230). */
export interface SharedSurfacePostView extends SurfacePostView {
  shared_by_username: string | null;
}

/** One item of a wall or a feed: a wall post (or a share of one), or a share of a group's or page's post. */
export type WallItem = PostView | SharedSurfacePostView;

export function isSurfaceItem(item: WallItem): item is SharedSurfacePostView {
  return 'post_type' in item.post;
}

/** A share of a group's or page's post found by a list whose posts are read afterwards (the stored timeline). */
export interface SurfaceShareLine {
  post_type: SurfacePostType;
  post_id: number;
  shared_by_username: string | null;
  feed_date: Timestamp;
}

export function isShareLine(item: PostView | SurfaceShareLine): item is SurfaceShareLine {
  return 'post_type' in item;
}

/**
 * The items of a page of wall entries, in their order: wall posts as every list reads them
 * (`PostRepository.views`), shares of group and page posts from their surfaces (`SurfacePostViews`:
 * one query per kind present, one for their authors), and the sharers' names in one query. Without
 * the surfaces (a context not loaded), their shares are left out, as posts one may not see.
 */
export class WallItems {
  constructor(
    private readonly posts: PostRepository,
    private readonly surfaces?: SurfacePostViews,
  ) {}

  async of(entries: FeedEntry[], viewerId: number): Promise<WallItem[]> {
    const sharers = [...new Set(entries.flatMap((e) => (e.post_type && e.shared_by !== null ? [e.shared_by] : [])))];
    const [views, names] = await Promise.all([
      this.posts.views(
        entries.filter((e) => !e.post_type),
        viewerId,
      ),
      this.posts.authors(sharers),
    ]);
    let wall = 0;
    const lines = entries.map((e): PostView | SurfaceShareLine | null => {
      if (!e.post_type) {
        // views() keeps the order and leaves out what is gone: match by post and date.
        const view = views[wall];
        if (view && view.post.id === e.post_id && view.feed_date === e.feed_date) {
          wall += 1;
          return view;
        }
        return null;
      }
      const sharer = e.shared_by === null ? null : (names.get(e.shared_by)?.username ?? null);
      return { post_type: e.post_type, post_id: e.post_id, shared_by_username: sharer, feed_date: e.feed_date };
    });
    return this.complete(
      lines.filter((l) => l !== null),
      viewerId,
    );
  }

  /** Reads the posts of the share lines among these items, keeping their order; a share whose post is gone is left out. */
  async complete(items: (PostView | SurfaceShareLine)[], viewerId: number): Promise<WallItem[]> {
    const lines = items.filter(isShareLine);
    if (lines.length === 0) return items as PostView[];
    const idsOf = (type: SurfacePostType) => lines.filter((l) => l.post_type === type).map((l) => l.post_id);
    const [groups, pages] = this.surfaces
      ? await Promise.all([this.surfaces.views('group', idsOf('group'), viewerId), this.surfaces.views('page', idsOf('page'), viewerId)])
      : [[], []];
    const byKey = new Map([...groups, ...pages].map((v) => [`${v.post.post_type}:${v.post.id}`, v]));
    return items.flatMap((item): WallItem[] => {
      if (!isShareLine(item)) return [item];
      const view = byKey.get(`${item.post_type}:${item.post_id}`);
      return view ? [{ ...view, feed_date: item.feed_date, shared_by_username: item.shared_by_username }] : [];
    });
  }
}
