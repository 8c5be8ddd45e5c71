import type { Timestamp } from '@plaza/domain';
import { NOTIFICATION_PREFERENCES, type NotificationPreference, type NotificationPreferenceRepository } from '@plaza/domain/accounts';
import type { Kysely } from 'kysely';
import { insertOrUpdate, type SqlDialect } from '../dialect.js';
import type { Database } from '../database.js';

/** One row per user and changed switch; absent rows keep the default. */
export class SqlNotificationPreferenceRepository implements NotificationPreferenceRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: SqlDialect,
  ) {}

  async get(userId: number) {
    const rows = await this.db.selectFrom('user_preferences').select(['pref_key', 'enabled']).where('user_id', '=', userId).execute();
    const out: Partial<Record<NotificationPreference, boolean>> = {};
    for (const r of rows)
      if ((NOTIFICATION_PREFERENCES as readonly string[]).includes(r.pref_key))
        out[r.pref_key as NotificationPreference] = Boolean(r.enabled);
    return out;
  }

  async set(userId: number, values: Partial<Record<NotificationPreference, boolean>>, at: Timestamp) {
    // In key order: concurrent writers then lock the same rows in the same order (no deadlock).
    const rows = Object.entries(values)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([pref_key, enabled]) => ({ user_id: userId, pref_key, enabled: enabled ? 1 : 0, updated_at: at }));
    for (const row of rows) {
      await insertOrUpdate(this.db, this.dialect, 'user_preferences', [row], ['user_id', 'pref_key'], {
        enabled: row.enabled,
        updated_at: at,
      });
    }
  }

  async deleteOfUser(userId: number) {
    await this.db.deleteFrom('user_preferences').where('user_id', '=', userId).execute();
  }
}
