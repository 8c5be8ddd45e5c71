import type { InMemoryUserRepository } from '../../accounts/testing/in-memory-accounts.js';
import type { InMemoryContentStore } from '../../content/testing/in-memory-content.js';
import { canSeePost, type FeedEntry, type SurfacePostType, type Viewer } from '../../content/index.js';
import type { InMemorySurfacePost } from '../../content/testing/in-memory-surface-engagement.js';
import type { PageRequest } from '../../shared/pagination.js';
import { offsetOf } from '../../shared/pagination.js';
import type { InMemoryFollowRepository, InMemoryFriendRequestRepository } from '../../social/testing/in-memory-social.js';
import type { SearchIndex, UserHit } from '../ports.js';

const wordsOf = (text: string) => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

/** Scans the in-memory stores, ranking as the SQL indexes do (see `SearchIndex`). */
export class InMemorySearchIndex implements SearchIndex {
  constructor(
    private readonly accounts: InMemoryUserRepository,
    private readonly content: InMemoryContentStore,
    private readonly follows: InMemoryFollowRepository,
    private readonly friends: InMemoryFriendRequestRepository,
    /** Group and page posts by `type:id`, as the test publishes them (the surface engagement fake's map). */
    private readonly surfaces: ReadonlyMap<string, InMemorySurfacePost> = new Map(),
  ) {}

  async users(viewerId: number, prefix: string, page: PageRequest): Promise<UserHit[]> {
    const p = prefix.toLowerCase();
    const rank = (u: { username: string; display_name: string | null }) => {
      const name = u.username.toLowerCase();
      if (name === p) return 0;
      if (name.startsWith(p)) return 1;
      return 2;
    };
    const found = [...this.accounts.rows.values()]
      .filter((u) => u.username.toLowerCase().startsWith(p) || (u.display_name ?? '').toLowerCase().startsWith(p))
      .sort(
        (a, b) =>
          rank(a) - rank(b) ||
          a.username.length - b.username.length ||
          (a.username.toLowerCase() < b.username.toLowerCase() ? -1 : 1) ||
          a.id - b.id,
      );
    return found.slice(offsetOf(page), offsetOf(page) + page.perPage).map((u) => ({
      id: u.id,
      is_friend: this.friends.rows.some(
        (r) =>
          r.status === 'accepted' &&
          ((r.sender_id === viewerId && r.receiver_id === u.id) || (r.receiver_id === viewerId && r.sender_id === u.id)),
      ),
    }));
  }

  async posts(viewer: Viewer, words: string[], page: PageRequest): Promise<FeedEntry[]> {
    const scored = [...this.content.posts.values()].flatMap((post) => {
      const author = this.accounts.rows.get(post.user_id);
      if (!author) return [];
      const follows = this.follows.edges.some((e) => e.follower_id === viewer.userId && e.followee_id === post.user_id);
      if (!canSeePost(viewer, { kind: 'account', authorId: author.id, isPrivate: author.is_private }, { follows })) return [];
      const tokens = wordsOf(post.content);
      if (!words.every((w) => tokens.some((t) => t.startsWith(w)))) return [];
      // Occurrences of the words, relative to the post's length: denser posts first.
      const hits = tokens.filter((t) => words.some((w) => t.startsWith(w))).length;
      return [{ post, score: hits / Math.sqrt(tokens.length) }];
    });
    scored.sort(
      (a, b) =>
        b.score - a.score ||
        (a.post.created_at < b.post.created_at ? 1 : a.post.created_at > b.post.created_at ? -1 : b.post.id - a.post.id),
    );
    return scored
      .slice(offsetOf(page), offsetOf(page) + page.perPage)
      .map(({ post }) => ({ post_id: post.id, shared_by: null, feed_date: post.created_at }));
  }

  async surfacePosts(viewer: Viewer, type: SurfacePostType, words: string[], page: PageRequest): Promise<number[]> {
    if (words.length === 0) return [];
    const scored = [...this.surfaces.values()].flatMap(({ record, visibleTo }) => {
      if (record.post_type !== type || !visibleTo(viewer.userId)) return [];
      const tokens = wordsOf(record.content);
      if (!words.every((w) => tokens.some((t) => t.startsWith(w)))) return [];
      const hits = tokens.filter((t) => words.some((w) => t.startsWith(w))).length;
      return [{ post: record, score: hits / Math.sqrt(tokens.length) }];
    });
    scored.sort(
      (a, b) =>
        b.score - a.score ||
        (a.post.created_at < b.post.created_at ? 1 : a.post.created_at > b.post.created_at ? -1 : b.post.id - a.post.id),
    );
    return scored.slice(offsetOf(page), offsetOf(page) + page.perPage).map(({ post }) => post.id);
  }
}
