import type { Generated } from 'kysely';

export interface PagesTable {
  id: Generated<number>;
  name: string;
  description: string;
  category: string;
  avatar: string | null;
  cover_image: string | null;
  location: string;
  website: string;
  privacy: string;
  social_twitter: string;
  social_mastodon: string;
  social_instagram: string;
  social_tiktok: string;
  social_facebook: string;
  social_bluesky: string;
  created_by: number;
  followers_count: Generated<number>;
  created_at: string;
  updated_at: string | null;
}

/** The team of a page (the spec's page_admins), with each member's role. */
export interface PageAdminsTable {
  page_id: number;
  user_id: number;
  role: string;
  created_at: string;
}

export interface PageFollowsTable {
  page_id: number;
  user_id: number;
  created_at: string;
}

export interface PagePostsTable {
  id: Generated<number>;
  page_id: number;
  user_id: number;
  content: string;
  media: string | null;
  media_type: string | null;
  like_count: Generated<number>;
  comment_count: Generated<number>;
  created_at: string;
  updated_at: string | null;
}

export interface PagePostReactionsTable {
  post_id: number;
  user_id: number;
  reaction_type: string;
  created_at: string;
}

/** Comments of page posts; their reactions are comment_reactions rows of comment_type `page`. */
export interface PageCommentsTable {
  id: Generated<number>;
  post_id: number;
  user_id: number;
  content: string;
  reactions_count: Generated<number>;
  created_at: string;
  updated_at: string | null;
}

export interface PagesTables {
  pages: PagesTable;
  page_admins: PageAdminsTable;
  page_follows: PageFollowsTable;
  page_posts: PagePostsTable;
  page_post_reactions: PagePostReactionsTable;
  page_comments: PageCommentsTable;
}

declare module '../database.js' {
  interface Database extends PagesTables {}
}
