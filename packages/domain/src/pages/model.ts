import type { Timestamp } from '../shared/time.js';

/** Roles of page_admins (docs/decisions/0035): what each may do is in `rules.ts`. */
export const PAGE_ROLES = ['admin', 'editor'] as const;
export type PageRole = (typeof PAGE_ROLES)[number];

export const PAGE_PRIVACIES = ['public', 'private'] as const;
export type PagePrivacy = (typeof PAGE_PRIVACIES)[number];

/** The categories the client offers (contract §22); others are accepted as free text. */
export const PAGE_CATEGORIES = [
  'Syndicat',
  'Collectif',
  'Association',
  'Média',
  'Squat / Lieu',
  'Infokiosque',
  'Artiste',
  'Projet',
  'Autre',
] as const;

/** The social links a page may show, by their wire names. */
export const PAGE_SOCIAL_FIELDS = [
  'social_twitter',
  'social_mastodon',
  'social_instagram',
  'social_tiktok',
  'social_facebook',
  'social_bluesky',
] as const;
export type PageSocialField = (typeof PAGE_SOCIAL_FIELDS)[number];

export const MAX_PAGE_NAME = 100;
export const MAX_PAGE_DESCRIPTION = 5000;
export const MAX_PAGE_SHORT_TEXT = 255;
export const MAX_PAGE_POST_LENGTH = 10_000;
export const MAX_PAGE_COMMENT_LENGTH = 5000;

export interface PageFields {
  name: string;
  description: string;
  category: string;
  avatar: string | null;
  cover_image: string | null;
  location: string;
  website: string;
  privacy: PagePrivacy;
  social_twitter: string;
  social_mastodon: string;
  social_instagram: string;
  social_tiktok: string;
  social_facebook: string;
  social_bluesky: string;
}

/** A new page's fields before its creator fills any in: public, with no texts, links or images. */
export const BLANK_PAGE: Readonly<Omit<PageFields, 'name'>> = {
  description: '',
  category: '',
  avatar: null,
  cover_image: null,
  location: '',
  website: '',
  privacy: 'public',
  ...(Object.fromEntries(PAGE_SOCIAL_FIELDS.map((f) => [f, ''])) as Record<PageSocialField, string>),
};

export interface PageRecord extends PageFields {
  id: number;
  created_by: number;
  followers_count: number;
  created_at: Timestamp;
  updated_at: Timestamp | null;
}

export interface TeamMemberRecord {
  page_id: number;
  user_id: number;
  role: PageRole;
  created_at: Timestamp;
}

export interface PageFollowRecord {
  page_id: number;
  user_id: number;
  created_at: Timestamp;
}

export interface PagePostRecord {
  id: number;
  page_id: number;
  user_id: number;
  content: string;
  /** A bare uploaded file name (the client prefixes `uploads/posts/`), or null. */
  media: string | null;
  media_type: string | null;
  like_count: number;
  comment_count: number;
  created_at: Timestamp;
  updated_at: Timestamp | null;
}

export interface PageCommentRecord {
  id: number;
  post_id: number;
  user_id: number;
  content: string;
  reactions_count: number;
  created_at: Timestamp;
  updated_at: Timestamp | null;
}
