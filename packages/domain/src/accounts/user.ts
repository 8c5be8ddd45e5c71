import { Conflict } from '../shared/errors.js';
import type { Timestamp } from '../shared/time.js';

/**
 * A stored account, as every use case hands it out: without its secrets (`UserSecrets`), which only
 * the use cases that check them read (docs/decisions/0113). Field names follow the database and wire
 * vocabulary (snake_case) so that repositories and presenters pass records through without renaming
 * every column.
 */
export interface UserRecord {
  id: number;
  username: string;
  email: string;
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
  totp_enabled: boolean;
  /** Privacy preferences that other contexts' reads apply, kept on the account so no list needs another query. */
  show_online_status: boolean;
  read_receipts: boolean;
  allow_messages: boolean;
  /** Set when the account was deleted: the row stays as an anonymous tombstone (docs/decisions/0090). */
  deleted_at: Timestamp | null;
  last_active_at: Timestamp | null;
  created_at: Timestamp;
}

/** What proves an account's identity: read by login, re-authentication and two-factor set-up, never returned. */
export interface UserSecrets {
  password_hash: string;
  /** The TOTP secret: pending while two-factor is off and being set up, in force while it is on. */
  totp_secret: string | null;
}

export type UserWithSecrets = UserRecord & UserSecrets;

/** The account without its secrets, for repositories that hold both. */
export function withoutSecrets<T extends UserSecrets>(user: T): Omit<T, keyof UserSecrets> {
  const { password_hash: _hash, totp_secret: _secret, ...rest } = user;
  return rest;
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
/** An e-mail address as registration and an address change accept it (a deleted account's `.invalid` one aside). */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * The refusals of a taken identifier. Registration checks first, and the repository raises the same
 * when its unique keys refuse an account created meanwhile by a concurrent registration.
 */
export const usernameTaken = () => new Conflict('This username is already taken', 'username_taken');
export const emailTaken = () => new Conflict('An account already uses this e-mail address', 'email_taken');

/** The role columns of an account, as every record that shows an account carries them. */
export interface RoleFlags {
  id: number;
  is_admin: boolean;
  is_moderator: boolean;
  is_technician: boolean;
}

/** The roles an account holds, after the hierarchy below: what presenters show and permission checks read. */
export interface Roles {
  admin: boolean;
  moderator: boolean;
  technician: boolean;
}

/**
 * The role hierarchy, decided here and nowhere else: an admin is also a moderator and a technician; a
 * technician is also any account listed in MEDIA_TECHNICIAN_USER_IDS (the spec's fallback criterion).
 * Presenters and `actorOf` read roles through this, never from the columns, so an account cannot be a
 * moderator in one response and not in another.
 */
export function rolesOf(u: RoleFlags, technicianUserIds: readonly number[] = []): Roles {
  return {
    admin: u.is_admin,
    moderator: u.is_admin || u.is_moderator,
    technician: u.is_admin || u.is_technician || technicianUserIds.includes(u.id),
  };
}

export function isModerator(u: RoleFlags): boolean {
  return rolesOf(u).moderator;
}

export function isTechnician(u: RoleFlags, technicianUserIds: readonly number[] = []): boolean {
  return rolesOf(u, technicianUserIds).technician;
}
