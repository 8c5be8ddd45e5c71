import { listPage, type PageRequest } from '../../shared/pagination.js';
import type { Timestamp } from '../../shared/time.js';
import type { UserRepository } from '../ports.js';
import type {
  AccountHold,
  AccountHoldRepository,
  EmailConfirmationRepository,
  Invitation,
  InvitationRepository,
  PendingRegistration,
} from '../registration-ports.js';
import { captureState, type Snapshottable } from '../../shared/testing/snapshot.js';
import { InMemorySingleUseTokenRepository } from './in-memory-accounts.js';

/** Registration's holds in memory; the pending list reads the accounts from the user fake, as SQL joins them. */
export class InMemoryAccountHoldRepository implements AccountHoldRepository, Snapshottable {
  readonly rows = new Map<number, AccountHold>();

  constructor(private readonly users: UserRepository) {}

  snapshot() {
    return captureState(this.rows);
  }

  async create(hold: AccountHold) {
    if (this.rows.has(hold.user_id)) throw new Error(`account ${hold.user_id} already has a hold`);
    this.rows.set(hold.user_id, { ...hold });
  }
  async find(userId: number) {
    const hold = this.rows.get(userId);
    return hold ? { ...hold } : null;
  }
  async clearApproval(userId: number) {
    return this.clear(userId, 'awaiting_approval');
  }
  async clearEmail(userId: number) {
    return this.clear(userId, 'awaiting_email');
  }
  async awaitingApproval(page: PageRequest) {
    const waiting = [...this.rows.values()]
      .filter((h) => h.awaiting_approval)
      .sort((a, b) => a.created_at.localeCompare(b.created_at) || a.user_id - b.user_id);
    const items: PendingRegistration[] = [];
    for (const hold of waiting) {
      const user = await this.users.findById(hold.user_id);
      if (!user || user.deleted_at !== null) continue;
      items.push({
        user_id: user.id,
        username: user.username,
        email: user.email,
        cause: user.cause,
        email_confirmed: !hold.awaiting_email,
        created_at: hold.created_at,
      });
    }
    const start = (page.page - 1) * page.perPage;
    return listPage(items.slice(start, start + page.perPage + 1), page);
  }
  private clear(userId: number, flag: 'awaiting_approval' | 'awaiting_email') {
    const hold = this.rows.get(userId);
    if (!hold?.[flag]) return false;
    hold[flag] = false;
    if (!hold.awaiting_approval && !hold.awaiting_email) this.rows.delete(userId);
    return true;
  }
}

export class InMemoryInvitationRepository implements InvitationRepository, Snapshottable {
  readonly rows: (Invitation & { code_hash: string })[] = [];

  snapshot() {
    return captureState(this.rows);
  }

  async create(invitation: {
    code_hash: string;
    code_hint: string;
    max_uses: number;
    expires_at: Timestamp | null;
    created_by: number;
    created_at: Timestamp;
  }) {
    const row = { id: this.rows.length + 1, ...invitation, uses: 0, revoked_at: null };
    this.rows.push(row);
    return shown(row);
  }
  async use(codeHash: string, now: Timestamp) {
    const row = this.rows.find((r) => r.code_hash === codeHash);
    if (!row || row.revoked_at !== null || row.uses >= row.max_uses || (row.expires_at !== null && row.expires_at <= now)) return false;
    row.uses += 1;
    return true;
  }
  async findByHash(codeHash: string) {
    const row = this.rows.find((r) => r.code_hash === codeHash);
    return row ? shown(row) : null;
  }
  async list(page: PageRequest) {
    const start = (page.page - 1) * page.perPage;
    return listPage(
      [...this.rows]
        .reverse()
        .slice(start, start + page.perPage + 1)
        .map(shown),
      page,
    );
  }
  async revoke(id: number, at: Timestamp) {
    const row = this.rows.find((r) => r.id === id);
    if (!row || row.revoked_at !== null) return false;
    row.revoked_at = at;
    return true;
  }
}

function shown({ code_hash: _hash, ...invitation }: Invitation & { code_hash: string }): Invitation {
  return { ...invitation };
}

export class InMemoryEmailConfirmationRepository extends InMemorySingleUseTokenRepository implements EmailConfirmationRepository {
  private readonly sent = new Map<number, Timestamp>();
  override snapshot() {
    const restoreRows = super.snapshot();
    const restoreSent = captureState(this.sent);
    return () => {
      restoreRows();
      restoreSent();
    };
  }
  override async create(r: { user_id: number; token_hash: string; created_at: Timestamp; expires_at: Timestamp }) {
    await super.create(r);
    const last = this.sent.get(r.user_id);
    if (!last || r.created_at > last) this.sent.set(r.user_id, r.created_at);
  }
  async lastSentAt(userId: number) {
    return this.sent.get(userId) ?? null;
  }
}
