import type { Actor } from '../shared/actor.js';
import type { Clock } from '../shared/clock.js';
import { Forbidden, NotFound } from '../shared/errors.js';
import { listPage, pageRequest } from '../shared/pagination.js';
import { toTimestamp } from '../shared/time.js';
import type { UnitOfWork } from '../shared/unit-of-work.js';
import type { EngagementEvents } from './engagement-events.js';
import type { EngagementService } from './engagement-service.js';
import type { PostEvents } from './post-events.js';
import type { AuthorInfo, ListPage, PostView } from './model.js';
import type { PostRepository } from './ports.js';
import type {
  BookmarkEntry,
  PostType,
  SurfaceEngagementRepository,
  SurfacePostLookup,
  SurfacePostRecord,
  ShareablePostRef,
  SurfacePostType,
} from './surface-engagement-ports.js';
import { viewerOf } from './visibility.js';

/** A group or page post in a list, with its author. */
export interface SurfacePostView {
  post: SurfacePostRecord;
  author: AuthorInfo;
  is_bookmarked: boolean;
  feed_date: string;
}

/**
 * Group and page posts as a list shows them: their records, authors and whether the viewer bookmarked
 * them, with one query per kind plus one for the authors and one for the bookmarks, whatever their number.
 */
export class SurfacePostViews {
  constructor(
    private readonly posts: PostRepository,
    private readonly engagement: SurfaceEngagementRepository,
  ) {}

  /** These posts of one kind in the order given, those gone (or whose author is) left out; `bookmarked` when known. */
  async views(type: SurfacePostType, ids: number[], viewerId: number, bookmarked?: ReadonlySet<number>): Promise<SurfacePostView[]> {
    if (ids.length === 0) return [];
    const [records, marks] = await Promise.all([
      this.engagement.surfacePosts(type, ids, viewerId),
      bookmarked ?? this.engagement.bookmarkedAmong(type, ids, viewerId),
    ]);
    const authors = records.length ? await this.posts.authors([...new Set(records.map((r) => r.user_id))]) : new Map();
    const byId = new Map(records.map((r) => [r.id, r]));
    return ids.flatMap((id) => {
      const post = byId.get(id);
      const author = post && authors.get(post.user_id);
      return post && author ? [{ post, author, is_bookmarked: marks.has(id), feed_date: post.created_at }] : [];
    });
  }
}

/** One item of the bookmark list: a wall post's view as every wall list shows it, or a group or page post's. */
export type BookmarkedView = { post_type: 'post'; view: PostView } | { post_type: SurfacePostType; view: SurfacePostView };

/**
 * Bookmarks and shares of posts of every surface (docs/decisions/0195, 0196). A wall post (`post`, the
 * default) goes through `EngagementService` exactly as before; a group or page post is looked up by
 * its context's `SurfacePostLookup`, so its surface's visibility rule decides: one it may not see is as
 * unknown as a missing one (404 `post_not_found`).
 */
export class SurfaceEngagementService {
  private readonly lookups: ReadonlyMap<SurfacePostType, SurfacePostLookup>;
  private readonly surfaceViews: SurfacePostViews;

  constructor(
    private readonly wall: EngagementService,
    private readonly posts: PostRepository,
    private readonly engagement: SurfaceEngagementRepository,
    lookups: readonly SurfacePostLookup[],
    private readonly clock: Clock,
    private readonly uow: UnitOfWork,
    /** The post listeners (the home timeline's fan-out) and the engagement ones (notices), called in the share's unit of work. */
    private readonly events: { posts: PostEvents; engagement: EngagementEvents },
  ) {
    this.lookups = new Map(lookups.map((l) => [l.type, l]));
    this.surfaceViews = new SurfacePostViews(posts, engagement);
  }

  private async visible(actor: Actor, type: SurfacePostType, postId: number): Promise<ShareablePostRef> {
    const lookup = this.lookups.get(type);
    // A surface whose context is not loaded has no posts to find.
    if (!lookup) throw new NotFound('Post not found', 'post_not_found');
    return lookup.visiblePost(actor, postId);
  }

  async bookmark(actor: Actor, postId: number, type: PostType = 'post'): Promise<boolean> {
    if (type === 'post') return this.wall.bookmark(actor, postId);
    await this.visible(actor, type, postId);
    return this.engagement.bookmark(type, postId, actor.userId, toTimestamp(this.clock.now()));
  }

  async unbookmark(actor: Actor, postId: number, type: PostType = 'post'): Promise<boolean> {
    if (type === 'post') return this.wall.unbookmark(actor, postId);
    await this.visible(actor, type, postId);
    return this.engagement.unbookmark(type, postId, actor.userId);
  }

  /**
   * Shares a post. A group or page post's share is recorded, counted and put on the sharer's wall, from
   * where it reaches their followers' feeds as a wall post's share does, and its author is told as the
   * surface tells of a reaction (docs/decisions/0230); it never federates. A private group's or private
   * page's post cannot be shared (403 `post_not_shareable`, nothing stored, docs/decisions/0196).
   */
  async share(actor: Actor, postId: number, type: PostType = 'post'): Promise<{ post_id: number; shared: boolean; shares_count: number }> {
    if (type === 'post') return this.wall.share(actor, postId);
    const post = await this.visible(actor, type, postId);
    if (!post.shareable) throw new Forbidden('This post stays with its audience: it cannot be shared', 'post_not_shareable');
    // The share, its wall entry, the timelines' fan-out and the notice are stored together; the
    // shares key admits one share per user and post, so a repeated share writes nothing more.
    const shared = await this.uow.run(async () => {
      const at = toTimestamp(this.clock.now());
      if (!(await this.engagement.share(type, postId, actor.userId, at))) return false;
      const entryId = await this.posts.addSurfaceShare(type, postId, actor.userId, at);
      await this.events.posts.surfaceShared({ post_type: type, post_id: postId, userId: actor.userId, entryId, at });
      if (post.notice) await this.events.engagement.shared({ actor, recipientId: post.user_id, postId, place: post.notice });
      return true;
    });
    return { post_id: postId, shared, shares_count: await this.engagement.sharesCount(type, postId) };
  }

  /**
   * The actor's bookmarks of every surface they may still see, newest bookmark first: one query for the
   * page of bookmarks, then one per kind present and one for the authors, whatever the page size.
   */
  async bookmarks(actor: Actor, page?: number, perPage?: number): Promise<ListPage<BookmarkedView>> {
    const req = pageRequest(page, perPage);
    const p = listPage(await this.engagement.bookmarked(viewerOf(actor), req), req);
    const idsOf = (type: PostType) => p.items.filter((e) => e.post_type === type).map((e) => e.post_id);
    const [wallViews, groupViews, pageViews] = await Promise.all([
      idsOf('post').length ? this.posts.views(p.items.filter((e) => e.post_type === 'post').map(asFeedEntry), actor.userId) : [],
      this.surfaceViews.views('group', idsOf('group'), actor.userId, new Set(idsOf('group'))),
      this.surfaceViews.views('page', idsOf('page'), actor.userId, new Set(idsOf('page'))),
    ]);
    const byKey = new Map<string, BookmarkedView>();
    for (const view of wallViews) byKey.set(`post:${view.post.id}`, { post_type: 'post', view });
    for (const view of [...groupViews, ...pageViews])
      byKey.set(`${view.post.post_type}:${view.post.id}`, { post_type: view.post.post_type, view });
    const items = p.items.flatMap((e): BookmarkedView[] => {
      const item = byKey.get(`${e.post_type}:${e.post_id}`);
      if (!item) return [];
      // A bookmark's date is the list's date, as for the wall's (feed_date).
      return item.post_type === 'post' ? [item] : [{ post_type: item.post_type, view: { ...item.view, feed_date: e.created_at } }];
    });
    return { ...p, items };
  }
}

function asFeedEntry(e: BookmarkEntry) {
  return { post_id: e.post_id, shared_by: null, feed_date: e.created_at };
}
