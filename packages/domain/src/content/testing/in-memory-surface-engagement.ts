import { offsetOf, type PageRequest } from '../../shared/pagination.js';
import type { Timestamp } from '../../shared/time.js';
import type { ReactionType } from '../model.js';
import type { BookmarkEntry, SurfaceEngagementRepository, SurfacePostRecord, SurfacePostType } from '../surface-engagement-ports.js';
import type { Viewer } from '../visibility.js';
import type { InMemoryContentStore } from './in-memory-content.js';

/** A group or page post as the fake knows it: its record and its surface's rule for a reader. */
export interface InMemorySurfacePost {
  record: Omit<SurfacePostRecord, 'shares_count' | 'reaction_type'>;
  /** The surface's visibility rule (`canSeeGroupContent`, `canSeePage`) for this post and a user. */
  visibleTo(userId: number): boolean;
  reactions?: Map<number, ReactionType>;
}

/**
 * The fake of `SurfaceEngagementRepository`: group and page posts as the test publishes them, the
 * wall's bookmarks in the content store (so one list covers every surface, as the one SQL table does).
 */
export class InMemorySurfaceEngagementRepository implements SurfaceEngagementRepository {
  readonly posts = new Map<string, InMemorySurfacePost>();
  private readonly bookmarks = new Map<string, { user_id: number; post_type: SurfacePostType; post_id: number; created_at: Timestamp }>();
  private readonly shares = new Set<string>();

  constructor(private readonly wall: InMemoryContentStore) {
    // Walls hold shares of these posts: the content store's lists ask their rule (docs/decisions/0230).
    wall.surfaceVisibility = (type, postId, userId) => this.posts.get(`${type}:${postId}`)?.visibleTo(userId) === true;
  }

  async bookmark(type: SurfacePostType, postId: number, userId: number, at: Timestamp) {
    const key = `${userId}:${type}:${postId}`;
    if (this.bookmarks.has(key)) return false;
    this.bookmarks.set(key, { user_id: userId, post_type: type, post_id: postId, created_at: at });
    return true;
  }
  async unbookmark(type: SurfacePostType, postId: number, userId: number) {
    return this.bookmarks.delete(`${userId}:${type}:${postId}`);
  }
  async share(type: SurfacePostType, postId: number, userId: number) {
    const key = `${type}:${postId}:${userId}`;
    if (this.shares.has(key)) return false;
    this.shares.add(key);
    return true;
  }
  async sharesCount(type: SurfacePostType, postId: number) {
    return [...this.shares].filter((k) => k.startsWith(`${type}:${postId}:`)).length;
  }

  async bookmarked(viewer: Viewer, page: PageRequest): Promise<BookmarkEntry[]> {
    const wall: BookmarkEntry[] = [...this.wall.bookmarks.values()]
      .filter((b) => b.user_id === viewer.userId && this.wall.visibleTo(b.post_id, viewer))
      .map((b) => ({ post_type: 'post', post_id: b.post_id, created_at: b.created_at }));
    const surfaces: BookmarkEntry[] = [...this.bookmarks.values()]
      .filter((b) => b.user_id === viewer.userId && this.posts.get(`${b.post_type}:${b.post_id}`)?.visibleTo(viewer.userId) === true)
      .map((b) => ({ post_type: b.post_type, post_id: b.post_id, created_at: b.created_at }));
    // Newest first, then as the SQL orders ties: post_type descending, post_id descending.
    const rows = [...wall, ...surfaces].sort((a, b) =>
      a.created_at !== b.created_at
        ? a.created_at < b.created_at
          ? 1
          : -1
        : a.post_type !== b.post_type
          ? a.post_type < b.post_type
            ? 1
            : -1
          : b.post_id - a.post_id,
    );
    return rows.slice(offsetOf(page), offsetOf(page) + page.perPage + 1);
  }

  async bookmarkedAmong(type: SurfacePostType, ids: number[], userId: number) {
    return new Set(ids.filter((id) => this.bookmarks.has(`${userId}:${type}:${id}`)));
  }

  async surfacePosts(type: SurfacePostType, ids: number[], viewerId: number): Promise<SurfacePostRecord[]> {
    const out: SurfacePostRecord[] = [];
    for (const id of new Set(ids)) {
      const p = this.posts.get(`${type}:${id}`);
      if (!p) continue;
      out.push({
        ...p.record,
        shares_count: await this.sharesCount(type, id),
        reaction_type: p.reactions?.get(viewerId) ?? null,
      });
    }
    return out;
  }
}
