import type { Timestamp } from '@plaza/domain';
import type { AccountDataPart, AccountEraser, AuthChangePublisher } from '@plaza/domain/accounts';
import type { Kysely } from 'kysely';
import { lockRowForUpdate, type SqlDialect } from '../dialect.js';
import type { Database } from '../database.js';

/**
 * Erases an account (docs/decisions/0090) inside the caller's unit of work: every context's part
 * erases its own rows (docs/decisions/0093), then the account row becomes a tombstone, which stays
 * because others' threads reference it.
 */
export class SqlAccountEraser implements AccountEraser {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: SqlDialect,
    private readonly parts: readonly AccountDataPart[],
    /** Told of the erasure: the account's sessions end with it (docs/decisions/0150). */
    private readonly sessions?: AuthChangePublisher,
  ) {}

  async erase(userId: number, at: Timestamp): Promise<void> {
    const db = this.db;
    // First statement of the unit: two erasures of one account run one after the other.
    await lockRowForUpdate(db, this.dialect, 'users', userId);
    const user = await db.selectFrom('users').select(['id', 'deleted_at']).where('id', '=', userId).executeTakeFirst();
    if (!user || user.deleted_at !== null) return;

    for (const part of this.parts) await part.erase(userId, at);

    // The tombstone: no name, address, password, profile or flag of the person is left.
    await db
      .updateTable('users')
      .set({
        username: `deleted_${userId}`,
        email: `deleted_${userId}@deleted.invalid`,
        password_hash: '',
        display_name: null,
        avatar: null,
        banner: null,
        bio: null,
        cause: null,
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
        is_admin: 0,
        is_technician: 0,
        is_moderator: 0,
        is_private: 0,
        totp_secret: null,
        totp_enabled: 0,
        totp_last_step: null,
        last_active_at: null,
        deleted_at: at,
        updated_at: at,
      })
      .where('id', '=', userId)
      .execute();
    await this.sessions?.publish(userId);
  }
}
