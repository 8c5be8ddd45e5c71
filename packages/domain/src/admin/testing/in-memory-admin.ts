import type { InMemoryUserRepository } from '../../accounts/testing/in-memory-accounts.js';
import { offsetOf, type PageRequest } from '../../shared/pagination.js';
import type { Timestamp } from '../../shared/time.js';
import type { RosterUser, WithdrawOutcome } from '../model.js';
import type { AdminRoster, AdminSessionStore, SettingsStore } from '../ports.js';

/** Settings kept in memory, copied in and out so callers cannot change them behind the store's back. */
export class InMemorySettingsStore<T> implements SettingsStore<T> {
  private value: T | null = null;
  writes = 0;
  constructor(readonly location = 'memory') {}
  async read(): Promise<T | null> {
    return this.value === null ? null : structuredClone(this.value);
  }
  async write(values: T): Promise<void> {
    this.value = structuredClone(values);
    this.writes += 1;
  }
}

export class InMemoryAdminSessionStore implements AdminSessionStore {
  readonly rows = new Map<string, { data: string; expires_at: Timestamp }>();
  async get(keyHash: string, now: Timestamp) {
    const row = this.rows.get(keyHash);
    return row && row.expires_at > now ? row.data : null;
  }
  async put(keyHash: string, data: string, expiresAt: Timestamp) {
    this.rows.set(keyHash, { data, expires_at: expiresAt });
  }
  async delete(keyHash: string) {
    this.rows.delete(keyHash);
  }
  async deleteExpired(now: Timestamp) {
    let n = 0;
    for (const [k, row] of this.rows) {
      if (row.expires_at <= now) {
        this.rows.delete(k);
        n += 1;
      }
    }
    return n;
  }
}

/** The roster over the in-memory accounts; without awaits between check and write, so each call is atomic. */
export class InMemoryAdminRoster implements AdminRoster {
  constructor(private readonly users: InMemoryUserRepository) {}

  async search(query: string | null, page: PageRequest) {
    const q = query?.toLowerCase() ?? null;
    const all = [...this.users.rows.values()]
      .filter((u) => u.deleted_at === null)
      .filter((u) => q === null || u.username.toLowerCase().startsWith(q) || u.email.toLowerCase().startsWith(q))
      .sort((a, b) =>
        a.username.toLowerCase() < b.username.toLowerCase() ? -1 : a.username.toLowerCase() > b.username.toLowerCase() ? 1 : a.id - b.id,
      );
    const slice = all.slice(offsetOf(page), offsetOf(page) + page.perPage + 1);
    const items: RosterUser[] = slice.slice(0, page.perPage).map((u) => ({
      id: u.id,
      username: u.username,
      email: u.email,
      is_admin: u.is_admin,
      is_technician: u.is_technician,
      is_moderator: u.is_moderator,
      created_at: u.created_at,
    }));
    return { items, more: slice.length > page.perPage };
  }

  async promote(userId: number) {
    const u = this.users.rows.get(userId);
    if (!u || u.deleted_at !== null || u.is_admin) return false;
    u.is_admin = true;
    return true;
  }

  async withdraw(userId: number, byUserId: number): Promise<WithdrawOutcome> {
    const admins = [...this.users.rows.values()].filter((u) => u.is_admin && u.deleted_at === null);
    if (!admins.some((u) => u.id === byUserId)) return 'not_allowed';
    if (!admins.some((u) => u.id === userId)) return 'not_admin';
    if (admins.length < 2) return 'last_admin';
    this.users.rows.get(userId)!.is_admin = false;
    return 'withdrawn';
  }
}
