import type {
  AccessTokenRepository,
  Mailer,
  MailMessage,
  PasswordHasher,
  SecretTokens,
  SingleUseTokenRepository,
  StoredToken,
  TotpVerifier,
  UserRepository,
} from '../ports.js';
import type { ProfileStats, ProfileStatsReader } from '../profile-service.js';
import type { ReauthenticationAttempts, TokenAuthentication } from '../reauthentication.js';
import {
  emailTaken,
  type NewUser,
  type ProfilePatch,
  type UserRecord,
  usernameTaken,
  type UserWithSecrets,
  withoutSecrets,
} from '../user.js';
import type { Timestamp } from '../../shared/time.js';
import { captureState, type Snapshottable } from '../../shared/testing/snapshot.js';
import type { AuthoredPosts, FollowEdges, FriendRequestRows } from '../../shared/testing/in-memory-world.js';

export class InMemoryUserRepository implements UserRepository, Snapshottable {
  readonly rows = new Map<number, UserWithSecrets>();
  /** Last TOTP time step used per account (replay protection). */
  readonly totpSteps = new Map<number, number>();
  private nextId = 1;

  snapshot() {
    const restore = captureState(this.rows);
    const restoreSteps = captureState(this.totpSteps);
    const nextId = this.nextId;
    return () => {
      restore();
      restoreSteps();
      this.nextId = nextId;
    };
  }

  async create(user: NewUser): Promise<UserRecord> {
    // The unique keys of the SQL table, case-insensitive as its collation; checked with no await
    // before the insert, so that concurrent creates cannot both pass.
    const taken = this.takenNow(user.username, user.email);
    if (taken.username) throw usernameTaken();
    if (taken.email) throw emailTaken();
    const record: UserWithSecrets = {
      id: this.nextId++,
      ...user,
      display_name: null,
      avatar: null,
      banner: null,
      bio: null,
      website: null,
      twitter: null,
      instagram: null,
      facebook: null,
      tiktok: null,
      mastodon: null,
      bluesky: null,
      location: null,
      github: null,
      militant_badge: null,
      status_emoji: null,
      status_text: null,
      is_technician: false,
      is_moderator: false,
      is_private: false,
      totp_secret: null,
      totp_enabled: false,
      show_online_status: true,
      read_receipts: true,
      allow_messages: true,
      deleted_at: null,
      last_active_at: null,
    };
    this.rows.set(record.id, record);
    return withoutSecrets(record);
  }
  async findById(id: number): Promise<UserRecord | null> {
    const u = this.rows.get(id);
    return u ? withoutSecrets(u) : null;
  }
  async findWithSecrets(id: number) {
    const u = this.rows.get(id);
    return u ? { ...u } : null;
  }
  async findByIds(ids: number[]) {
    return ids.flatMap((id) => (this.rows.has(id) ? [withoutSecrets(this.rows.get(id)!)] : []));
  }
  async findByLogin(login: string) {
    const u = await this.findByLoginWithSecrets(login);
    return u && withoutSecrets(u);
  }
  async findByLoginWithSecrets(login: string) {
    const l = login.toLowerCase();
    const field = l.includes('@') ? 'email' : 'username';
    const u = [...this.rows.values()].find((r) => r[field].toLowerCase() === l);
    return u ? { ...u } : null;
  }
  async findByEmail(email: string) {
    const u = [...this.rows.values()].find((r) => r.email.toLowerCase() === email.toLowerCase());
    return u ? withoutSecrets(u) : null;
  }
  async taken(username: string, email: string) {
    return this.takenNow(username, email);
  }
  private takenNow(username: string, email: string) {
    const rows = [...this.rows.values()];
    return {
      username: rows.some((r) => r.username.toLowerCase() === username.toLowerCase()),
      email: rows.some((r) => r.email.toLowerCase() === email.toLowerCase()),
    };
  }
  async updateProfile(id: number, patch: ProfilePatch) {
    const u = this.rows.get(id);
    if (u) Object.assign(u, patch);
  }
  async updatePasswordHash(id: number, hash: string) {
    const u = this.rows.get(id);
    if (u) u.password_hash = hash;
  }
  async updateEmail(id: number, email: string) {
    const u = this.rows.get(id);
    if ([...this.rows.values()].some((r) => r.id !== id && r.email.toLowerCase() === email.toLowerCase())) throw emailTaken();
    if (u) u.email = email;
  }
  async setTwoFactor(id: number, secret: string | null, enabled: boolean) {
    const u = this.rows.get(id);
    if (u) Object.assign(u, { totp_secret: secret, totp_enabled: enabled });
  }
  async setPendingTotpSecret(id: number, secret: string) {
    const u = this.rows.get(id);
    if (!u || u.totp_secret !== null || u.totp_enabled) return false;
    u.totp_secret = secret;
    return true;
  }
  async enableTotp(id: number, secret: string) {
    const u = this.rows.get(id);
    if (!u || u.totp_enabled || u.totp_secret !== secret) return false;
    u.totp_enabled = true;
    return true;
  }
  async disableTotp(id: number) {
    const u = this.rows.get(id);
    if (!u || !u.totp_enabled) return false;
    Object.assign(u, { totp_enabled: false, totp_secret: null });
    return true;
  }
  async advanceTotpStep(id: number, step: number) {
    const last = this.totpSteps.get(id);
    if (!this.rows.has(id) || (last !== undefined && last >= step)) return false;
    this.totpSteps.set(id, step);
    return true;
  }
  async replacePasswordHash(id: number, expected: string, hash: string) {
    const u = this.rows.get(id);
    if (!u || u.password_hash !== expected) return false;
    u.password_hash = hash;
    return true;
  }
  async setPrivacy(id: number, flags: Partial<Pick<UserRecord, 'is_private' | 'show_online_status' | 'read_receipts' | 'allow_messages'>>) {
    const u = this.rows.get(id);
    if (u) Object.assign(u, flags);
  }
  async setAdmin(id: number, isAdmin: boolean) {
    const u = this.rows.get(id);
    if (u) u.is_admin = isAdmin;
  }
  async touchLastActive(id: number, at: Timestamp) {
    const u = this.rows.get(id);
    if (u) u.last_active_at = at;
  }
}

interface TokenRow extends StoredToken {
  token_hash: string;
  authentication: TokenAuthentication | null;
  created_at: Timestamp;
  revoked_at: Timestamp | null;
}

export class InMemoryAccessTokenRepository implements AccessTokenRepository, Snapshottable {
  readonly rows: TokenRow[] = [];
  constructor(private readonly users: InMemoryUserRepository) {}
  snapshot() {
    return captureState(this.rows);
  }
  async create(t: {
    user_id: number;
    token_hash: string;
    created_at: Timestamp;
    expires_at: Timestamp;
    authentication?: TokenAuthentication | null;
  }) {
    const id = this.rows.length + 1;
    this.rows.push({
      id,
      user_id: t.user_id,
      token_hash: t.token_hash,
      created_at: t.created_at,
      expires_at: t.expires_at,
      last_used_at: null,
      revoked_at: null,
      authentication: t.authentication ?? null,
    });
    return id;
  }
  async findActive(tokenHash: string, now: Timestamp) {
    const row = this.rows.find((r) => r.token_hash === tokenHash && r.revoked_at === null && r.expires_at > now);
    const user = row ? await this.users.findById(row.user_id) : null;
    if (!row || !user) return null;
    return {
      id: row.id,
      user_id: row.user_id,
      expires_at: row.expires_at,
      last_used_at: row.last_used_at,
      user,
      authentication: row.authentication && { ...row.authentication },
    };
  }
  async findSession(tokenHash: string, now: Timestamp) {
    // No bans here (they are the moderation context's): `banned` stays unknown, and admission asks.
    const active = await this.findActive(tokenHash, now);
    return active && { id: active.id, expires_at: active.expires_at, last_used_at: active.last_used_at, user: active.user };
  }
  async revoke(id: number, at: Timestamp) {
    const row = this.rows.find((r) => r.id === id);
    if (!row || row.revoked_at !== null) return false;
    row.revoked_at = at;
    return true;
  }
  async revokeAllOfUser(userId: number, at: Timestamp) {
    for (const row of this.rows) if (row.user_id === userId && row.revoked_at === null) row.revoked_at = at;
  }
  async revokeOthers(userId: number, keepId: number, at: Timestamp) {
    let n = 0;
    for (const row of this.rows) {
      if (row.user_id === userId && row.id !== keepId && row.revoked_at === null) {
        row.revoked_at = at;
        n += 1;
      }
    }
    return n;
  }
  async touch(id: number, at: Timestamp) {
    const row = this.rows.find((r) => r.id === id);
    if (row) row.last_used_at = at;
  }
  async listActiveOfUser(userId: number, now: Timestamp) {
    return this.rows
      .filter((r) => r.user_id === userId && r.revoked_at === null && r.expires_at > now)
      .sort((a, b) => b.id - a.id)
      .map((r) => ({ id: r.id, user_id: r.user_id, created_at: r.created_at, expires_at: r.expires_at, last_used_at: r.last_used_at }));
  }
}

/** Re-authentication attempts in memory: each call runs without an await, as one conditional write. */
export class InMemoryReauthenticationAttempts implements ReauthenticationAttempts, Snapshottable {
  readonly rows = new Map<number, { attempts: number; last_attempt_at: Timestamp }>();
  snapshot() {
    return captureState(this.rows);
  }
  async claim(userId: number, now: Timestamp, windowStart: Timestamp, limit: number) {
    const row = this.rows.get(userId);
    const stale = !row || row.last_attempt_at <= windowStart;
    if (!stale && row.attempts >= limit) return false;
    this.rows.set(userId, { attempts: stale ? 1 : row.attempts + 1, last_attempt_at: now });
    return true;
  }
  async lockedSince(userId: number, windowStart: Timestamp, limit: number) {
    const row = this.rows.get(userId);
    return row && row.attempts >= limit && row.last_attempt_at > windowStart ? row.last_attempt_at : null;
  }
  async clear(userId: number) {
    this.rows.delete(userId);
  }
}

/** Single-use tokens in memory: password resets and deletion confirmations alike. */
export class InMemorySingleUseTokenRepository implements SingleUseTokenRepository, Snapshottable {
  readonly rows: { user_id: number; token_hash: string; expires_at: Timestamp; used_at: Timestamp | null }[] = [];
  snapshot() {
    return captureState(this.rows);
  }
  async create(r: { user_id: number; token_hash: string; created_at: Timestamp; expires_at: Timestamp }) {
    this.rows.push({ user_id: r.user_id, token_hash: r.token_hash, expires_at: r.expires_at, used_at: null });
  }
  async consume(tokenHash: string, now: Timestamp) {
    const row = this.rows.find((r) => r.token_hash === tokenHash && r.used_at === null && r.expires_at > now);
    if (!row) return null;
    row.used_at = now;
    return row.user_id;
  }
}
export class InMemoryPasswordResetRepository extends InMemorySingleUseTokenRepository {}

/** Reversible "hash" so unit tests stay fast; the bcrypt adapter has its own tests. */
export class PlainPasswordHasher implements PasswordHasher {
  async hash(password: string) {
    return `plain:${password}`;
  }
  async verify(password: string, hash: string) {
    return hash === `plain:${password}`;
  }
}

/**
 * Accepts exactly the codes it was told, each belonging to a time step: `valid.set(secret, code)`
 * (step 1), or `accept(secret, code, step)`.
 */
export class FakeTotpVerifier implements TotpVerifier {
  readonly valid = new Map<string, string>();
  private readonly steps = new Map<string, number>();
  private secrets = 0;
  accept(secret: string, code: string, step: number) {
    this.valid.set(secret, code);
    this.steps.set(`${secret}/${code}`, step);
  }
  async match(secret: string, code: string) {
    return this.valid.get(secret) === code ? (this.steps.get(`${secret}/${code}`) ?? 1) : null;
  }
  newSecret() {
    this.secrets += 1;
    return `SECRET${this.secrets}`;
  }
  uri(issuer: string, label: string, secret: string) {
    return `otpauth://totp/${encodeURIComponent(issuer)}:${encodeURIComponent(label)}?secret=${secret}&issuer=${encodeURIComponent(issuer)}`;
  }
}

export class SequentialSecretTokens implements SecretTokens {
  private n = 0;
  generate() {
    this.n += 1;
    return `secret-${this.n}-${'x'.repeat(40)}`;
  }
  hash(token: string) {
    return `h(${token})`;
  }
}

export class RecordingMailer implements Mailer {
  readonly sent: MailMessage[] = [];
  async send(message: MailMessage) {
    this.sent.push(message);
  }
}

/** Profile counters read from the other contexts' rows (the shared in-memory world's views), as the SQL reader reads their tables. */
export class InMemoryProfileStatsReader implements ProfileStatsReader {
  constructor(
    private readonly users: InMemoryUserRepository,
    private readonly follows: FollowEdges,
    private readonly friends?: FriendRequestRows,
    private readonly content?: AuthoredPosts,
    /** Federation's remote follows (InMemoryRemoteFollowRepository), when the test has them. */
    private readonly remote?: { counts(userId: number): Promise<{ followers: number; following: number }> },
  ) {}

  async profileOf(userId: number, viewerId: number | null) {
    const user = await this.users.findById(userId);
    const remote = (await this.remote?.counts(userId)) ?? { followers: 0, following: 0 };
    return (
      user && {
        user,
        stats: { ...this.statsFor(userId, viewerId), remote_followers_count: remote.followers, remote_following_count: remote.following },
      }
    );
  }

  private statsFor(userId: number, viewerId: number | null): Omit<ProfileStats, 'remote_followers_count' | 'remote_following_count'> {
    const edges = this.follows.edges;
    const requests = this.friends?.rows ?? [];
    const between = (from: number | null, to: number, status: string) =>
      requests.find((r) => r.sender_id === from && r.receiver_id === to && r.status === status);
    return {
      posts_count: [...(this.content?.posts.values() ?? [])].filter((p) => p.user_id === userId).length,
      followers_count: edges.filter((e) => e.followee_id === userId).length,
      following_count: edges.filter((e) => e.follower_id === userId).length,
      is_following: viewerId !== null && edges.some((e) => e.follower_id === viewerId && e.followee_id === userId),
      is_followed_by: viewerId !== null && edges.some((e) => e.follower_id === userId && e.followee_id === viewerId),
      is_friend: viewerId !== null && Boolean(between(viewerId, userId, 'accepted') ?? between(userId, viewerId, 'accepted')),
      sent_request_id: between(viewerId, userId, 'pending')?.id ?? null,
      received_request_id: viewerId === null ? null : (between(userId, viewerId, 'pending')?.id ?? null),
    };
  }
}
