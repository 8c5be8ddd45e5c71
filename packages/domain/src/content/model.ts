import type { ActorCard } from '../shared/actor.js';
import type { Timestamp } from '../shared/time.js';

export const REACTION_TYPES = ['like', 'love', 'haha', 'wow', 'sad', 'angry'] as const;
export type ReactionType = (typeof REACTION_TYPES)[number];

export const COMMENT_TYPES = ['post', 'group', 'page'] as const;
export type CommentType = (typeof COMMENT_TYPES)[number];

export const POST_MAX_LENGTH = 10_000;
export const COMMENT_MAX_LENGTH = 5_000;
export const STORY_TTL_SECONDS = 24 * 3600;

export interface NewPost {
  user_id: number;
  content: string;
  media: string[];
  media_type: string | null;
  tags: string[];
  created_at: Timestamp;
}

export interface PostRecord extends NewPost {
  id: number;
  likes_count: number;
  comments_count: number;
  shares_count: number;
  updated_at: Timestamp | null;
}

/** A post just stored, with the id of its entry on the author's wall: what its listeners fan out. */
export interface CreatedPost extends PostRecord {
  wall_entry_id: number;
}

/** The author fields a post or comment shows: the account's public card but its privacy. */
export interface AuthorInfo extends Omit<ActorCard, 'is_private'> {
  id: number;
  username: string;
  /** Set when the author is a remote actor (a reply from another server; docs/decisions/0205). */
  remote?: RemoteAuthor;
}

/** A remote actor as a comment's author: who they are on their server. */
export interface RemoteAuthor {
  actor_url: string;
  /** `@name@domain`. */
  handle: string;
  display_name: string;
}

/** One line of a feed or wall: a post, or a share of one by `shared_by`. */
export interface FeedEntry {
  /**
   * Absent for a wall post (a row of posts); a share of a group's or a page's post names its kind
   * (docs/decisions/0230), whose view is read from its own surface.
   */
  post_type?: 'group' | 'page';
  post_id: number;
  shared_by: number | null;
  feed_date: Timestamp;
}

/** A post as a given viewer sees it in a list. */
export interface PostView {
  post: PostRecord;
  author: AuthorInfo;
  is_liked: boolean;
  reaction_type: ReactionType | null;
  is_bookmarked: boolean;
  feed_date: Timestamp;
  shared_by_username: string | null;
}

export type { ListPage } from '../shared/pagination.js';

export interface CommentRecord {
  id: number;
  post_id: number;
  /** The local author; 0 for a remote actor's reply, whose author is `remote_actor_url` (docs/decisions/0205). */
  user_id: number;
  remote_actor_url?: string | null;
  parent_id: number | null;
  content: string;
  reactions_count: number;
  created_at: Timestamp;
  updated_at: Timestamp | null;
}

export interface CommentView {
  comment: CommentRecord;
  author: AuthorInfo;
  has_reacted: boolean;
  replies: CommentView[];
}

export interface StoryRecord {
  id: number;
  user_id: number;
  media: string;
  text: string;
  created_at: Timestamp;
  expires_at: Timestamp;
}

export interface StoryView {
  story: StoryRecord;
  author: AuthorInfo;
}

/** Hashtags of a text: `#` then at least two letters, digits or underscores; lowercased, unique, sorted. */
export function extractHashtags(text: string): string[] {
  const out = new Set<string>();
  for (const m of text.matchAll(/#([\p{L}\p{N}_]{2,})/gu)) out.add(m[1].toLowerCase());
  return [...out].sort();
}

/** Usernames mentioned as `@name` in a text, unique, in order of appearance. */
export function extractMentions(text: string): string[] {
  const out = new Set<string>();
  for (const m of text.matchAll(/(^|[^\w@])@([A-Za-z0-9_.-]{2,64})/g)) out.add(m[2].replace(/[.-]+$/, ''));
  return [...out].slice(0, 20);
}

export function normalizeTags(tags: string[]): string[] {
  const out = new Set<string>();
  for (const t of tags) {
    const clean = t.trim().replace(/^#+/, '').toLowerCase();
    if (clean.length >= 1 && clean.length <= 64) out.add(clean);
  }
  return [...out].sort().slice(0, 30);
}
