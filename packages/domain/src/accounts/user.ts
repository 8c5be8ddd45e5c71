import type { Timestamp } from '../shared/time.js';

/**
 * A stored account. Field names follow the database and wire vocabulary (snake_case) so that
 * repositories and presenters pass records through without renaming every column.
 */
export interface UserRecord {
  id: number;
  username: string;
  email: string;
  password_hash: string;
  display_name: string | null;
  avatar: string | null;
  banner: string | null;
  bio: string | null;
  cause: string | null;
  website: string | null;
  twitter: string | null;
  instagram: string | null;
  facebook: string | null;
  tiktok: string | null;
  mastodon: string | null;
  bluesky: string | null;
  location: string | null;
  github: string | null;
  militant_badge: string | null;
  status_emoji: string | null;
  status_text: string | null;
  is_admin: boolean;
  is_technician: boolean;
  is_moderator: boolean;
  is_private: boolean;
  totp_secret: string | null;
  totp_enabled: boolean;
  last_active_at: Timestamp | null;
  created_at: Timestamp;
}

export interface NewUser {
  username: string;
  email: string;
  password_hash: string;
  cause: string | null;
  is_admin: boolean;
  created_at: Timestamp;
}

/** Profile fields a user may change on themselves (PUT users.php). */
export const EDITABLE_PROFILE_FIELDS = [
  'display_name',
  'bio',
  'cause',
  'website',
  'avatar',
  'banner',
  'militant_badge',
  'status_emoji',
  'status_text',
  'twitter',
  'instagram',
  'facebook',
  'tiktok',
  'mastodon',
  'bluesky',
  'location',
  'github',
] as const;

export type EditableProfileField = (typeof EDITABLE_PROFILE_FIELDS)[number];

/** A partial update: a key set to null clears the field; an absent key is left alone. */
export type ProfilePatch = Partial<Record<EditableProfileField, string | null>>;

/** Usernames appear in @mentions and URLs, so they are restricted to a safe alphabet. */
export const USERNAME_PATTERN = /^[A-Za-z0-9_.-]{3,30}$/;
export const MIN_PASSWORD_LENGTH = 8;
