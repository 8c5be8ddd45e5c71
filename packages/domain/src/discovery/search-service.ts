import { asSeenBy } from '../accounts/preferences.js';
import type { UserRecord } from '../accounts/user.js';
import type { UserRepository } from '../accounts/ports.js';
import type { PostRepository, PostView, SurfaceEngagementRepository, SurfacePostType } from '../content/index.js';
import { SurfacePostViews, type SurfacePostView } from '../content/surface-engagement-service.js';
import { viewerOf } from '../content/visibility.js';
import type { Actor } from '../shared/actor.js';
import { Invalid } from '../shared/errors.js';
import type { PageRequest } from '../shared/pagination.js';
import type { SearchIndex } from './ports.js';

export const SEARCH_TYPES = ['all', 'users', 'posts'] as const;
export type SearchType = (typeof SEARCH_TYPES)[number];

/** Longest query taken, in characters. */
export const SEARCH_QUERY_MAX = 200;
/** Words of a post search: shorter ones are not indexed (MySQL's FULLTEXT default minimum is 3). */
export const SEARCH_WORD_MIN = 3;
const SEARCH_WORDS_MAX = 8;
const SEARCH_WORD_MAX = 64;

/**
 * The words of a post search: runs of letters and digits, lowercased, in order, without repeats,
 * those shorter than `SEARCH_WORD_MIN` left out (a query of only short words finds no posts).
 */
export function searchWords(q: string): string[] {
  const words = (q.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [])
    .filter((w) => [...w].length >= SEARCH_WORD_MIN)
    .map((w) => [...w].slice(0, SEARCH_WORD_MAX).join(''));
  return [...new Set(words)].slice(0, SEARCH_WORDS_MAX);
}

export interface UserResult {
  user: UserRecord;
  is_friend: boolean;
}

export interface SearchResults {
  users: UserResult[];
  posts: PostView[];
  /** Group and page posts, each kind paged as the others (docs/decisions/0197). */
  group_posts: SurfacePostView[];
  page_posts: SurfacePostView[];
}

/**
 * search.php: accounts by the start of their username or display name, posts by their words. Posts go
 * through the visibility rule in the index's query (a private account's posts reach only its
 * followers, and moderators while a report names them), so pages are full. Each list costs a constant number of queries.
 */
export class SearchService {
  private readonly surfaceViews: SurfacePostViews;

  constructor(
    private readonly index: SearchIndex,
    private readonly users: UserRepository,
    private readonly posts: PostRepository,
    surfaces: SurfaceEngagementRepository,
  ) {
    this.surfaceViews = new SurfacePostViews(posts, surfaces);
  }

  async search(actor: Actor, input: { q: string; type: SearchType; page: PageRequest }): Promise<SearchResults> {
    const q = input.q.trim();
    if (q === '') throw Invalid.field('q', 'must not be empty');
    if ([...q].length > SEARCH_QUERY_MAX) throw Invalid.field('q', `must be at most ${SEARCH_QUERY_MAX} characters`);
    const words = input.type === 'users' ? [] : searchWords(q);
    const [users, posts, group_posts, page_posts] = await Promise.all([
      input.type === 'posts' ? [] : this.findUsers(actor, q.replace(/^@/, ''), input.page),
      this.findPosts(actor, words, input.page),
      this.findSurfacePosts(actor, 'group', words, input.page),
      this.findSurfacePosts(actor, 'page', words, input.page),
    ]);
    return { users, posts, group_posts, page_posts };
  }

  private async findUsers(actor: Actor, prefix: string, page: PageRequest): Promise<UserResult[]> {
    if (prefix === '') return [];
    const hits = await this.index.users(actor.userId, prefix, page);
    const records = new Map((await this.users.findByIds(hits.map((h) => h.id))).map((u) => [u.id, u]));
    return hits.flatMap((h) => {
      const user = records.get(h.id);
      // A hidden online status reads as offline to others, here as on profiles (privacy_online_status).
      return user ? [{ user: asSeenBy(user, actor.userId), is_friend: h.is_friend }] : [];
    });
  }

  private async findPosts(actor: Actor, words: string[], page: PageRequest): Promise<PostView[]> {
    if (words.length === 0) return [];
    const entries = await this.index.posts(viewerOf(actor), words, page);
    return entries.length ? this.posts.views(entries, actor.userId) : [];
  }

  /** Group or page posts by their words under their surface's rule: one query for the ids, then the views'. */
  private async findSurfacePosts(actor: Actor, type: SurfacePostType, words: string[], page: PageRequest): Promise<SurfacePostView[]> {
    if (words.length === 0) return [];
    const ids = await this.index.surfacePosts(viewerOf(actor), type, words, page);
    return this.surfaceViews.views(type, ids, actor.userId);
  }
}
