import type { AuthChangePublisher } from '@plaza/domain/accounts';
import type { Timestamp } from '@plaza/domain';
import type { AccessTokenRepository, ActiveToken, ListedToken, TokenAuthentication, TokenSession } from '@plaza/domain/accounts';
import { toUserRecord } from './sql-user-repository.js';
import type { Kysely } from 'kysely';
import { insertedId } from '../dialect.js';
import type { Database } from '../database.js';
import { prepared } from '../prepared.js';
import { hasBanInForce, isSuspended } from '../moderation/ban-in-force.js';

export class SqlAccessTokenRepository implements AccessTokenRepository {
  constructor(
    private readonly db: Kysely<Database>,
    /** Told of every change an account's sessions show (docs/decisions/0150). */
    private readonly sessions?: AuthChangePublisher,
  ) {}

  async create({
    authentication,
    ...token
  }: {
    user_id: number;
    token_hash: string;
    created_at: Timestamp;
    expires_at: Timestamp;
    authentication?: TokenAuthentication | null;
  }) {
    const row = { ...token, authenticated_at: authentication?.at ?? null, authenticated_with: authentication?.factors ?? null };
    return insertedId(await this.db.insertInto('access_tokens').values(row).executeTakeFirstOrThrow());
  }

  private readonly findActiveQuery = prepared((tokenHash: string, now: string) =>
    this.db
      .selectFrom('access_tokens as t')
      .innerJoin('users as u', 'u.id', 't.user_id')
      .selectAll('u')
      .select([
        't.id as token_id',
        't.expires_at as token_expires_at',
        't.last_used_at as token_last_used_at',
        't.authenticated_at as token_authenticated_at',
        't.authenticated_with as token_authenticated_with',
      ])
      .where('t.token_hash', '=', tokenHash)
      .where('t.revoked_at', 'is', null)
      .where('t.expires_at', '>', now)
      .limit(1),
  );

  async findActive(tokenHash: string, now: Timestamp): Promise<ActiveToken | null> {
    const [row] = await this.findActiveQuery(this.db, tokenHash, now);
    if (!row) return null;
    const { token_id, token_expires_at, token_last_used_at, token_authenticated_at, token_authenticated_with, ...user } = row;
    const authentication =
      token_authenticated_at && token_authenticated_with ? { at: token_authenticated_at, factors: token_authenticated_with } : null;
    return {
      id: token_id,
      user_id: user.id,
      expires_at: token_expires_at,
      last_used_at: token_last_used_at,
      user: toUserRecord(user),
      authentication,
    };
  }

  /**
   * Every authenticated request runs this: one round trip, built once (prepared.ts), for the token,
   * the few columns of its account an actor needs (every column more is parsed on every request), and
   * whether a ban is in force or a suspension (moderation's rules), so that admitting the request needs no query.
   */
  private readonly findSessionQuery = prepared((tokenHash: string, now: string) =>
    this.db
      .selectFrom('access_tokens as t')
      .innerJoin('users as u', 'u.id', 't.user_id')
      .select([
        't.id',
        't.expires_at',
        't.last_used_at',
        'u.id as user_id',
        'u.username',
        'u.is_admin',
        'u.is_moderator',
        'u.is_technician',
        'u.avatar',
        'u.militant_badge',
        'u.is_private',
      ])
      .select((eb) => hasBanInForce(eb, eb.ref('u.id'), now).as('banned'))
      .select((eb) => isSuspended(eb, eb.ref('u.id')).as('suspended'))
      .where('t.token_hash', '=', tokenHash)
      .where('t.revoked_at', 'is', null)
      .where('t.expires_at', '>', now)
      .limit(1),
  );

  async findSession(tokenHash: string, now: Timestamp): Promise<TokenSession | null> {
    const [row] = await this.findSessionQuery(this.db, tokenHash, now);
    if (!row) return null;
    return {
      id: row.id,
      expires_at: row.expires_at,
      last_used_at: row.last_used_at,
      user: {
        id: row.user_id,
        username: row.username,
        is_admin: Boolean(row.is_admin),
        is_moderator: Boolean(row.is_moderator),
        is_technician: Boolean(row.is_technician),
        avatar: row.avatar,
        militant_badge: row.militant_badge,
        is_private: Boolean(row.is_private),
      },
      banned: Boolean(Number(row.banned)),
      suspended: Boolean(Number(row.suspended)),
    };
  }

  async revoke(id: number, at: Timestamp) {
    // The condition makes it revoke once: of two concurrent calls, the second changes nothing.
    const result = await this.db
      .updateTable('access_tokens')
      .set({ revoked_at: at })
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) !== 1) return false;
    if (this.sessions) {
      const row = await this.db.selectFrom('access_tokens').select('user_id').where('id', '=', id).executeTakeFirst();
      if (row) await this.sessions.publish(row.user_id);
    }
    return true;
  }

  async revokeAllOfUser(userId: number, at: Timestamp) {
    await this.db
      .updateTable('access_tokens')
      .set({ revoked_at: at })
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .execute();
    await this.sessions?.publish(userId);
  }

  async revokeOthers(userId: number, keepId: number, at: Timestamp) {
    const result = await this.db
      .updateTable('access_tokens')
      .set({ revoked_at: at })
      .where('user_id', '=', userId)
      .where('id', '!=', keepId)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    const revoked = Number(result.numUpdatedRows);
    if (revoked > 0) await this.sessions?.publish(userId);
    return revoked;
  }

  async touch(id: number, at: Timestamp) {
    await this.db.updateTable('access_tokens').set({ last_used_at: at }).where('id', '=', id).execute();
  }

  async listActiveOfUser(userId: number, now: Timestamp): Promise<ListedToken[]> {
    // access_tokens_user narrows to the user's rows; a user holds a handful of tokens.
    return this.db
      .selectFrom('access_tokens')
      .select(['id', 'user_id', 'created_at', 'expires_at', 'last_used_at'])
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', now)
      .orderBy('id', 'desc')
      .execute();
  }
}
