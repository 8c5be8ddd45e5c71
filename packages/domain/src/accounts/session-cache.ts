import type { UnitOfWork } from '../shared/unit-of-work.js';
import type { AuthChangePublisher, AuthInvalidation } from './auth-invalidation.js';
import type { TokenSession } from './ports.js';

export interface SessionCacheSettings {
  /** Sessions kept, the least recently used dropped first. */
  maxEntries: number;
  /** A session is read again from the database at least this often, whatever the signal says. */
  maxAgeMs: number;
  /** How long what the signal said holds: past it, the next request asks the signal again (once a second). */
  checkEveryMs: number;
}

export const DEFAULT_SESSION_CACHE: SessionCacheSettings = { maxEntries: 50_000, maxAgeMs: 5 * 60_000, checkEveryMs: 1000 };

interface Entry {
  session: TokenSession;
  userId: number;
  /** Its token's expiry, on the domain's clock (the one `findSession` was asked with). */
  expires: number;
  /** `maxAgeMs` after it was read, on this process's clock. */
  until: number;
}

/**
 * The sessions this process authenticated, by the keyed hash of their token (docs/decisions/0150):
 * authenticating a request again costs no statement. Bounded in size (least recently used out) and in
 * age; an account's sessions leave it when `AuthInvalidation` says the account changed: at once when
 * this process made the change (`publish`, after its commit), within `checkEveryMs` when another did
 * (the signal is asked at most once per `checkEveryMs`, by the first request that finds the last answer
 * too old, and requests wait for it rather than trust an older one).
 *
 * Only sessions of accounts neither banned nor suspended are kept: the others are refused anyway, and a
 * ban lapses by itself at its expiry, which no publication announces.
 */
export class SessionCache implements AuthChangePublisher {
  private readonly entries = new Map<string, Entry>();
  private readonly byUser = new Map<number, Set<string>>();
  /** Raised by every eviction: a lookup that started before one does not store what it read. */
  private generation = 0;
  private cursor: string | null = null;
  /** When the last answered check started (what it said holds from then). */
  private checkedAt = Number.NEGATIVE_INFINITY;
  private checking: Promise<void> | null = null;
  readonly stats = { hits: 0, misses: 0, checks: 0, evictions: 0 };

  constructor(
    private readonly signal: AuthInvalidation,
    private readonly uow: UnitOfWork,
    private readonly settings: SessionCacheSettings = DEFAULT_SESSION_CACHE,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * The session of the token with this hash: the cached one while the signal is fresh and nothing
   * evicted it, else `load()`'s (stored when it may be). When the signal cannot be asked (the database
   * is down), every lookup loads. `at` is the request's time on the domain's clock, which token expiry
   * is measured against (tests move it); the age bound and the signal's freshness use the process's.
   */
  async lookup(tokenHash: string, at: Date, load: () => Promise<TokenSession | null>): Promise<TokenSession | null> {
    const fresh = await this.fresh();
    const now = this.now();
    if (fresh) {
      const entry = this.entries.get(tokenHash);
      if (entry && entry.until > now && entry.expires > at.getTime()) {
        // Most recently used last: Map keeps insertion order.
        this.entries.delete(tokenHash);
        this.entries.set(tokenHash, entry);
        this.stats.hits += 1;
        return entry.session;
      }
      if (entry) this.remove(tokenHash, entry.userId);
    }
    this.stats.misses += 1;
    const generation = this.generation;
    const session = await load();
    if (session && fresh && generation === this.generation && session.banned === false && session.suspended === false) {
      this.store(tokenHash, session, now);
    }
    return session;
  }

  /**
   * When the cached session was last recorded as used, as this process knows it now (undefined when it
   * is not cached): AuthService reads it right before deciding to record a use, so that of the requests
   * it serves at once with one token only the first writes (see `touched`).
   */
  lastUsedAt(tokenHash: string): TokenSession['last_used_at'] | undefined {
    return this.entries.get(tokenHash)?.session.last_used_at;
  }

  /** Records a use of the cached session (AuthService writes last_used_at at most once a minute). */
  touched(tokenHash: string, at: TokenSession['last_used_at']): void {
    const entry = this.entries.get(tokenHash);
    if (entry) entry.session = { ...entry.session, last_used_at: at };
  }

  /**
   * Announces that the account's sessions changed, once the current unit of work has committed (at
   * once outside one): this process forgets them, then every other hears of it through the signal.
   */
  async publish(userId: number): Promise<void> {
    await this.uow.afterCommit(async () => {
      this.evict(userId);
      await this.signal.publish(userId);
    });
  }

  /** Drops the account's sessions from this process only. */
  evict(userId: number): void {
    this.generation += 1;
    const hashes = this.byUser.get(userId);
    if (!hashes) return;
    this.byUser.delete(userId);
    for (const hash of hashes) this.entries.delete(hash);
    this.stats.evictions += hashes.size;
  }

  get size(): number {
    return this.entries.size;
  }

  private clear(): void {
    this.generation += 1;
    this.entries.clear();
    this.byUser.clear();
  }

  /** Whether what the signal said is recent enough to serve cached sessions; asks it when not. */
  private async fresh(): Promise<boolean> {
    if (this.now() - this.checkedAt < this.settings.checkEveryMs) return true;
    this.checking ??= this.check().finally(() => {
      this.checking = null;
    });
    try {
      await this.checking;
    } catch {
      return false;
    }
    return this.now() - this.checkedAt < this.settings.checkEveryMs;
  }

  private async check(): Promise<void> {
    const startedAt = this.now();
    this.stats.checks += 1;
    try {
      const changes = await this.signal.changedSince(this.cursor);
      // A first cursor says nothing of what happened before it: nothing cached can predate it but
      // what a failed check left, dropped here.
      if (this.cursor === null || changes.everyone) this.clear();
      else for (const userId of changes.userIds) this.evict(userId);
      this.cursor = changes.cursor;
      this.checkedAt = startedAt;
    } catch (error) {
      // Unknown what changed meanwhile: nothing cached is served again.
      this.clear();
      this.cursor = null;
      throw error;
    }
  }

  private store(tokenHash: string, session: TokenSession, now: number): void {
    const expires = Date.parse(`${session.expires_at.replace(' ', 'T')}Z`);
    const old = this.entries.get(tokenHash);
    if (old) this.remove(tokenHash, old.userId);
    this.entries.set(tokenHash, { session, userId: session.user.id, expires, until: now + this.settings.maxAgeMs });
    let hashes = this.byUser.get(session.user.id);
    if (!hashes) this.byUser.set(session.user.id, (hashes = new Set()));
    hashes.add(tokenHash);
    while (this.entries.size > this.settings.maxEntries) {
      const [oldest, entry] = this.entries.entries().next().value as [string, Entry];
      this.remove(oldest, entry.userId);
    }
  }

  private remove(tokenHash: string, userId: number): void {
    this.entries.delete(tokenHash);
    const hashes = this.byUser.get(userId);
    if (!hashes) return;
    hashes.delete(tokenHash);
    if (hashes.size === 0) this.byUser.delete(userId);
  }
}
