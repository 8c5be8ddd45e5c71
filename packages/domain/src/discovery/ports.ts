import type { FeedEntry, SurfacePostType, Viewer } from '../content/index.js';
import type { PageRequest } from '../shared/pagination.js';
import { token } from '../shared/token.js';

/** An account found by a search, with whether it is the searcher's friend. */
export interface UserHit {
  id: number;
  is_friend: boolean;
}

/**
 * The search indexes (users by name, posts by words), read through an index and never by scanning
 * every row. Pages are in rank order; a page past the last is empty.
 */
export interface SearchIndex {
  /**
   * Accounts whose username or display name starts with `prefix` (case-insensitively), best first: the
   * exact username, then usernames by length, then display names. `viewerId`'s own account included.
   */
  users(viewerId: number, prefix: string, page: PageRequest): Promise<UserHit[]>;
  /**
   * Posts whose text holds every one of `words` (each a word or the start of one), among those `viewer`
   * may see (the one visibility rule), most relevant first and newest among equals.
   */
  posts(viewer: Viewer, words: string[], page: PageRequest): Promise<FeedEntry[]>;
  /**
   * The ids of group or page posts holding every one of `words`, among those `viewer` may see by the
   * rule of their surface (a private group's posts for its members, a private page's for its team),
   * most relevant first and newest among equals (docs/decisions/0197).
   */
  surfacePosts(viewer: Viewer, type: SurfacePostType, words: string[], page: PageRequest): Promise<number[]>;
}
export const SearchIndex = token<SearchIndex>('discovery.SearchIndex');
