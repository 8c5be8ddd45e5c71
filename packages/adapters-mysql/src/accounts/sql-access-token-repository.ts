import type { AccessTokenRepository, Timestamp } from '@plaza/domain';
import type { Kysely } from 'kysely';
import { insertedId } from '../dialect.js';
import type { Database } from '../schema/index.js';

export class SqlAccessTokenRepository implements AccessTokenRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async create(token: { user_id: number; token_hash: string; created_at: Timestamp; expires_at: Timestamp }) {
    return insertedId(await this.db.insertInto('access_tokens').values(token).executeTakeFirstOrThrow());
  }

  async findActive(tokenHash: string, now: Timestamp) {
    const row = await this.db
      .selectFrom('access_tokens')
      .select(['id', 'user_id', 'expires_at', 'last_used_at'])
      .where('token_hash', '=', tokenHash)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    return row ?? null;
  }

  async revoke(id: number, at: Timestamp) {
    await this.db.updateTable('access_tokens').set({ revoked_at: at }).where('id', '=', id).where('revoked_at', 'is', null).execute();
  }

  async revokeAllOfUser(userId: number, at: Timestamp) {
    await this.db
      .updateTable('access_tokens')
      .set({ revoked_at: at })
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .execute();
  }

  async touch(id: number, at: Timestamp) {
    await this.db.updateTable('access_tokens').set({ last_used_at: at }).where('id', '=', id).execute();
  }
}
