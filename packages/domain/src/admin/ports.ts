import type { PageRequest } from '../shared/pagination.js';
import type { Timestamp } from '../shared/time.js';
import { token } from '../shared/token.js';
import type { MediaServerValues, RosterUser, TurnValues, WithdrawOutcome } from './model.js';

/**
 * Settings the admin panel writes and the server reads back at run time (DESIGN.md §3: PHP files
 * under API_CONFIG_DIR). `read` sees a write at once, in every instance sharing the folder.
 */
export interface SettingsStore<T> {
  /** The stored values, or null when nothing (usable) is stored. */
  read(): Promise<T | null>;
  /** Replaces the stored values, atomically: a reader sees the old values or the new ones. */
  write(values: T): Promise<void>;
  /** Where the values live, for the page (`config/media_server.local.php`). */
  readonly location: string;
}
/** `config/media_server.local.php`. */
export interface MediaServerSettingsStore extends SettingsStore<MediaServerValues> {}
export const MediaServerSettingsStore = token<MediaServerSettingsStore>('admin.MediaServerSettingsStore');
/** `config/turn.local.php`. */
export interface TurnSettingsStore extends SettingsStore<TurnValues> {}
export const TurnSettingsStore = token<TurnSettingsStore>('admin.TurnSettingsStore');

/**
 * Browser sessions of the admin panel, keyed by the hash of the cookie's random key (the key itself
 * is never stored). The data is opaque to the store.
 */
export interface AdminSessionStore {
  /** The session's data, or null when unknown or expired at `now`. */
  get(keyHash: string, now: Timestamp): Promise<string | null>;
  /** Creates or replaces the session. */
  put(keyHash: string, data: string, expiresAt: Timestamp): Promise<void>;
  delete(keyHash: string): Promise<void>;
  /** Forgets sessions expired at `now`; returns how many. */
  deleteExpired(now: Timestamp): Promise<number>;
}
export const AdminSessionStore = token<AdminSessionStore>('admin.AdminSessionStore');

/** The accounts as the technicians tab sees them, and the `is_admin` flag it changes. */
export interface AdminRoster {
  /**
   * Accounts (not deleted) whose username or e-mail starts with `query` (case-insensitive), by
   * username; all of them when `query` is null. `more` says whether another page follows.
   */
  search(query: string | null, page: PageRequest): Promise<{ items: RosterUser[]; more: boolean }>;
  /** Sets `is_admin`; false when the account does not exist (or is deleted) or already was one. */
  promote(userId: number): Promise<boolean>;
  /**
   * Withdraws `is_admin` from `userId` on behalf of `byUserId`, deciding under the admins' row locks:
   * `not_allowed` when `byUserId` is no longer an admin, `not_admin` when the target is not one,
   * `last_admin` when no other admin would remain. Of concurrent withdrawals by the last two admins,
   * exactly one goes through.
   */
  withdraw(userId: number, byUserId: number): Promise<WithdrawOutcome>;
}
export const AdminRoster = token<AdminRoster>('admin.AdminRoster');
