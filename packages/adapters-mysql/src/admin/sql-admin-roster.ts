import type { AuthChangePublisher } from '@plaza/domain/accounts';
import type { PageRequest } from '@plaza/domain';
import type { AdminRoster, RosterUser, WithdrawOutcome } from '@plaza/domain/admin';
import { type Kysely, sql } from 'kysely';
import type { Database } from '../database.js';
import type { SqlDialect } from '../dialect.js';

/** `LIKE` prefix pattern with `!` as the escape character (the same on MySQL and SQLite). */
const prefixPattern = (q: string) => `${q.replace(/[!%_]/g, (c) => `!${c}`)}%`;

export class SqlAdminRoster implements AdminRoster {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: SqlDialect,
    /** Told of every change an account's sessions show (docs/decisions/0150). */
    private readonly sessions?: AuthChangePublisher,
  ) {}

  async search(query: string | null, page: PageRequest): Promise<{ items: RosterUser[]; more: boolean }> {
    // Prefix matches use the unique indexes on username and email (case-insensitive collations).
    let q = this.db
      .selectFrom('users')
      .select(['id', 'username', 'email', 'is_admin', 'is_technician', 'is_moderator', 'created_at'])
      .where('deleted_at', 'is', null);
    if (query !== null) {
      const pattern = prefixPattern(query);
      q = q.where((eb) => eb.or([sql<boolean>`username like ${pattern} escape '!'`, sql<boolean>`email like ${pattern} escape '!'`]));
    }
    const rows = await q
      .orderBy('username')
      .orderBy('id')
      .limit(page.perPage + 1)
      .offset((page.page - 1) * page.perPage)
      .execute();
    const items = rows.slice(0, page.perPage).map((r) => ({
      ...r,
      is_admin: Boolean(r.is_admin),
      is_technician: Boolean(r.is_technician),
      is_moderator: Boolean(r.is_moderator),
    }));
    return { items, more: rows.length > page.perPage };
  }

  async promote(userId: number): Promise<boolean> {
    const result = await this.db
      .updateTable('users')
      .set({ is_admin: 1 })
      .where('id', '=', userId)
      .where('is_admin', '=', 0)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    const promoted = Number(result.numUpdatedRows) === 1;
    if (promoted) await this.sessions?.publish(userId);
    return promoted;
  }

  async withdraw(userId: number, byUserId: number): Promise<WithdrawOutcome> {
    return this.db.transaction().execute(async (trx) => {
      // Who the admins are, then their rows locked in id order and read again by the locking read
      // (which sees the latest committed values): two last admins withdrawing at once queue on the
      // same locks, and the second finds only one admin left. SQLite has one writer at a time.
      const seen = await trx.selectFrom('users').select('id').where('is_admin', '=', 1).where('deleted_at', 'is', null).execute();
      const ids = [...new Set([...seen.map((r) => r.id), userId, byUserId])].sort((a, b) => a - b);
      const locked =
        this.dialect === 'mysql'
          ? (
              await sql<{
                id: number;
                is_admin: number;
                deleted_at: string | null;
              }>`select id, is_admin, deleted_at from users where id in (${sql.join(ids)}) order by id for update`.execute(trx)
            ).rows
          : await trx.selectFrom('users').select(['id', 'is_admin', 'deleted_at']).where('id', 'in', ids).execute();
      const admins = locked.filter((r) => Number(r.is_admin) === 1 && r.deleted_at === null).map((r) => r.id);
      if (!admins.includes(byUserId)) return 'not_allowed';
      if (!admins.includes(userId)) return 'not_admin';
      if (admins.length < 2) return 'last_admin';
      await trx.updateTable('users').set({ is_admin: 0 }).where('id', '=', userId).execute();
      await this.sessions?.publish(userId);
      return 'withdrawn';
    });
  }
}
