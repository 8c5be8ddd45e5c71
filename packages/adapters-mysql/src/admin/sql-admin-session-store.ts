import type { Timestamp } from '@plaza/domain';
import type { AdminSessionStore } from '@plaza/domain/admin';
import type { Kysely } from 'kysely';
import type { Database } from '../database.js';
import { insertOrUpdate, type SqlDialect } from '../dialect.js';

export class SqlAdminSessionStore implements AdminSessionStore {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: SqlDialect,
  ) {}

  async get(keyHash: string, now: Timestamp): Promise<string | null> {
    const row = await this.db
      .selectFrom('admin_sessions')
      .select('data')
      .where('key_hash', '=', keyHash)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    return row?.data ?? null;
  }

  async put(keyHash: string, data: string, expiresAt: Timestamp): Promise<void> {
    await insertOrUpdate(this.db, this.dialect, 'admin_sessions', [{ key_hash: keyHash, data, expires_at: expiresAt }], ['key_hash'], {
      data,
      expires_at: expiresAt,
    });
  }

  async delete(keyHash: string): Promise<void> {
    await this.db.deleteFrom('admin_sessions').where('key_hash', '=', keyHash).execute();
  }

  async deleteExpired(now: Timestamp): Promise<number> {
    const result = await this.db.deleteFrom('admin_sessions').where('expires_at', '<=', now).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
