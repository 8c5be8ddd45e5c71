import type { Generated } from 'kysely';

export interface PostsTable {
  id: Generated<number>;
  user_id: number;
  content: string;
  /** JSON array of bare uploaded file names. */
  media: string;
  media_type: string | null;
  /** JSON array of lowercase tags. */
  tags: string;
  likes_count: Generated<number>;
  comments_count: Generated<number>;
  shares_count: Generated<number>;
  created_at: string;
  updated_at: string | null;
}

/** One line of a wall: the post itself (is_share 0) or a share of it, of any surface's post (docs/decisions/0230). */
export interface WallEntriesTable {
  id: Generated<number>;
  user_id: number;
  /** `post` (a row of posts), `group` (group_posts) or `page` (page_posts); only `post` entries are not shares. */
  post_type: Generated<string>;
  post_id: number;
  is_share: number;
  created_at: string;
}

export interface PostReactionsTable {
  post_id: number;
  user_id: number;
  reaction_type: string;
  created_at: string;
}

/** `post_type`: `post` (a wall post), `group` or `page` (docs/decisions/0195); the same for bookmarks. */
export interface SharesTable {
  post_type: Generated<string>;
  post_id: number;
  user_id: number;
  created_at: string;
}

export interface BookmarksTable {
  user_id: number;
  post_type: Generated<string>;
  post_id: number;
  created_at: string;
}

export interface CommentsTable {
  id: Generated<number>;
  post_id: number;
  /** Null for a remote actor's reply (docs/decisions/0205). */
  user_id: number | null;
  remote_actor_url: Generated<string | null>;
  remote_object_id: Generated<string | null>;
  parent_id: number | null;
  content: string;
  reactions_count: Generated<number>;
  created_at: string;
  updated_at: string | null;
}

export interface CommentReactionsTable {
  comment_type: string;
  comment_id: number;
  user_id: number;
  reaction_type: string;
  created_at: string;
}

export interface StoriesTable {
  id: Generated<number>;
  user_id: number;
  media: string;
  text: string;
  created_at: string;
  expires_at: string;
}

export interface ContentTables {
  posts: PostsTable;
  wall_entries: WallEntriesTable;
  post_reactions: PostReactionsTable;
  shares: SharesTable;
  bookmarks: BookmarksTable;
  comments: CommentsTable;
  comment_reactions: CommentReactionsTable;
  stories: StoriesTable;
}

declare module '../database.js' {
  /** The content tables join the database type when this module is loaded. */
  interface Database extends ContentTables {}
}
