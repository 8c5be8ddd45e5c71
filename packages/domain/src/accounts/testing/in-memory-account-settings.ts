import type { Timestamp } from '../../shared/time.js';
import { captureState, type Snapshottable } from '../../shared/testing/snapshot.js';
import type { AccountEraser } from '../account-deletion.js';
import type { AccountDataPart } from '../account-data.js';
import type { ExportRow, StoredMedia } from '../export.js';
import { InMemorySingleUseTokenRepository, type InMemoryAccessTokenRepository, type InMemoryUserRepository } from './in-memory-accounts.js';
import type { MailDeliveryLog, MailOutbox, OutboxEntry } from '../mail-outbox.js';
import type { MailMessage } from '../ports.js';
import type { NotificationPreference, NotificationPreferenceRepository } from '../preferences.js';
import type { RecoveryCodeRepository } from '../two-factor.js';

export class InMemoryRecoveryCodeRepository implements RecoveryCodeRepository, Snapshottable {
  readonly rows: { user_id: number; code_hash: string; used_at: Timestamp | null }[] = [];
  snapshot() {
    return captureState(this.rows);
  }
  async replace(userId: number, hashes: string[]) {
    await this.deleteAll(userId);
    for (const code_hash of hashes) this.rows.push({ user_id: userId, code_hash, used_at: null });
  }
  async consume(userId: number, hash: string, at: Timestamp) {
    const row = this.rows.find((r) => r.user_id === userId && r.code_hash === hash && r.used_at === null);
    if (!row) return false;
    row.used_at = at;
    return true;
  }
  async countUnused(userId: number) {
    return this.rows.filter((r) => r.user_id === userId && r.used_at === null).length;
  }
  async deleteAll(userId: number) {
    for (let i = this.rows.length - 1; i >= 0; i--) if (this.rows[i].user_id === userId) this.rows.splice(i, 1);
  }
}

interface OutboxRow extends OutboxEntry {
  lease_until: Timestamp | null;
}

export class InMemoryMailOutbox implements MailOutbox, Snapshottable {
  readonly rows: OutboxRow[] = [];
  snapshot() {
    return captureState(this.rows);
  }
  async add(entry: { user_id: number | null; message: MailMessage; created_at: Timestamp }) {
    const id = this.rows.length + 1;
    this.rows.push({
      id,
      user_id: entry.user_id,
      message: { ...entry.message },
      status: 'pending',
      attempts: 0,
      next_attempt_at: entry.created_at,
      last_error: null,
      sent_at: null,
      lease_until: null,
    });
    return id;
  }
  async find(id: number) {
    const row = this.rows.find((r) => r.id === id);
    if (!row) return null;
    const { lease_until: _lease, ...entry } = row;
    return structuredClone(entry);
  }
  private free(r: OutboxRow, now: Timestamp) {
    return r.status === 'pending' && r.next_attempt_at <= now && (r.lease_until === null || r.lease_until < now);
  }
  async due(now: Timestamp, limit: number) {
    return this.rows
      .filter((r) => this.free(r, now))
      .sort((a, b) => a.next_attempt_at.localeCompare(b.next_attempt_at) || a.id - b.id)
      .slice(0, limit)
      .map((r) => r.id);
  }
  async claim(id: number, now: Timestamp, leaseUntil: Timestamp) {
    const row = this.rows.find((r) => r.id === id);
    if (!row || !this.free(row, now)) return null;
    row.lease_until = leaseUntil;
    return this.find(id);
  }
  async markSent(id: number, at: Timestamp) {
    const row = this.rows.find((r) => r.id === id);
    if (row) Object.assign(row, { status: 'sent', sent_at: at, lease_until: null });
  }
  async markFailed(id: number, error: string, retryAt: Timestamp | null) {
    const row = this.rows.find((r) => r.id === id);
    if (!row) return;
    row.attempts += 1;
    row.last_error = error;
    row.lease_until = null;
    if (retryAt === null) row.status = 'failed';
    else row.next_attempt_at = retryAt;
  }
  async deleteOfUser(userId: number) {
    for (let i = this.rows.length - 1; i >= 0; i--) if (this.rows[i].user_id === userId) this.rows.splice(i, 1);
  }
}

export class RecordingDeliveryLog implements MailDeliveryLog {
  readonly lines: { outcome: 'sent' | 'failed'; id: number; error?: string; retryAt?: Timestamp | null }[] = [];
  sent(entry: OutboxEntry) {
    this.lines.push({ outcome: 'sent', id: entry.id });
  }
  failed(entry: OutboxEntry, error: string, retryAt: Timestamp | null) {
    this.lines.push({ outcome: 'failed', id: entry.id, error, retryAt });
  }
}

export class InMemoryNotificationPreferenceRepository implements NotificationPreferenceRepository, Snapshottable {
  readonly rows = new Map<number, Partial<Record<NotificationPreference, boolean>>>();
  snapshot() {
    return captureState(this.rows);
  }
  async get(userId: number) {
    return { ...(this.rows.get(userId) ?? {}) };
  }
  async set(userId: number, values: Partial<Record<NotificationPreference, boolean>>, _at?: Timestamp) {
    this.rows.set(userId, { ...(this.rows.get(userId) ?? {}), ...values });
  }
  async deleteOfUser(userId: number) {
    this.rows.delete(userId);
  }
}

export class InMemoryDeletionRequestRepository extends InMemorySingleUseTokenRepository {}

/**
 * The accounts side of an erasure, for the services' unit tests: the account becomes the tombstone
 * and its sessions go. The cross-context part (posts, relations, messages, counters) is the SQL
 * adapter's, held by the account-eraser contract suite against the database.
 */
export class TombstoneAccountEraser implements AccountEraser {
  readonly erased: number[] = [];
  constructor(
    private readonly users: InMemoryUserRepository,
    private readonly tokens: InMemoryAccessTokenRepository,
  ) {}
  async erase(userId: number, at: Timestamp) {
    const u = this.users.rows.get(userId);
    if (!u || u.deleted_at !== null) return;
    this.erased.push(userId);
    for (const t of this.tokens.rows) if (t.user_id === userId && t.revoked_at === null) t.revoked_at = at;
    Object.assign(u, {
      username: `deleted_${userId}`,
      email: `deleted_${userId}@deleted.invalid`,
      password_hash: '',
      bio: null,
      avatar: null,
      deleted_at: at,
    });
  }
}

/**
 * A context's account data held in memory, for unit tests of deletion and export: rows per user and
 * section, media per user, and the users it was asked to erase.
 */
export class InMemoryAccountDataPart implements AccountDataPart {
  readonly data = new Map<string, ExportRow[]>();
  readonly stored = new Map<number, StoredMedia[]>();
  readonly erased: number[] = [];
  constructor(readonly sections: readonly string[]) {}
  put(userId: number, section: string, rows: ExportRow[]) {
    this.data.set(`${userId}/${section}`, rows);
  }
  async *rows(userId: number, section: string) {
    for (const row of this.data.get(`${userId}/${section}`) ?? []) yield row;
  }
  async *media(userId: number) {
    for (const m of this.stored.get(userId) ?? []) yield m;
  }
  async erase(userId: number) {
    this.erased.push(userId);
    for (const key of [...this.data.keys()]) if (key.startsWith(`${userId}/`)) this.data.delete(key);
    this.stored.delete(userId);
  }
}
