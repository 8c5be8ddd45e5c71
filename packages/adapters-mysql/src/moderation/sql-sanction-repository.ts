import type { AuthChangePublisher } from '@plaza/domain/accounts';
import { type PageRequest, type Timestamp } from '@plaza/domain';
import type { BanRecord, SanctionRepository, WarningRecord } from '@plaza/domain/moderation';
import type { Kysely, Selectable } from 'kysely';
import { insertedId, lockRowForUpdate, type SqlDialect } from '../dialect.js';
import type { Database } from '../database.js';
import type { UserBansTable, UserWarningsTable } from './schema.js';
import { banInForce } from './ban-in-force.js';
import { pagedWithTotal } from '../paged-list.js';

function toWarning(row: Selectable<UserWarningsTable>): WarningRecord {
  return { ...row, id: Number(row.id) };
}

function toBan(row: Selectable<UserBansTable>): BanRecord {
  return { ...row, id: Number(row.id), is_permanent: Boolean(row.is_permanent) };
}

export class SqlSanctionRepository implements SanctionRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: SqlDialect,
    /** Told of every change an account's sessions show (docs/decisions/0150). */
    private readonly sessions?: AuthChangePublisher,
  ) {}

  /**
   * The account's row stands for its sanctions: it always exists, whereas locking absent warning or
   * ban rows would only take gap locks, which two units can both hold and then deadlock on insert.
   */
  async lockUser(userId: number) {
    await lockRowForUpdate(this.db, this.dialect, 'users', userId);
  }

  async addWarning(warning: Omit<WarningRecord, 'id'>) {
    const id = insertedId(await this.db.insertInto('user_warnings').values(warning).executeTakeFirstOrThrow());
    return { id, ...warning };
  }

  async countWarningsAfter(userId: number, after: Timestamp) {
    const { n } = await this.db
      .selectFrom('user_warnings')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('user_id', '=', userId)
      .where('created_at', '>', after)
      .executeTakeFirstOrThrow();
    return Number(n);
  }

  async addBan(ban: Omit<BanRecord, 'id'>) {
    const id = insertedId(
      await this.db
        .insertInto('user_bans')
        .values({ ...ban, is_permanent: ban.is_permanent ? 1 : 0 })
        .executeTakeFirstOrThrow(),
    );
    await this.sessions?.publish(ban.user_id);
    return { id, ...ban };
  }

  async bansOf(userId: number) {
    const rows = await this.db.selectFrom('user_bans').selectAll().where('user_id', '=', userId).orderBy('id', 'desc').execute();
    return rows.map(toBan);
  }

  async activeBan(userId: number, now: Timestamp) {
    const row = await this.db
      .selectFrom('user_bans')
      .selectAll()
      .where('user_id', '=', userId)
      .where((eb) => banInForce(eb, now))
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
    return row ? toBan(row) : null;
  }

  async warnings(userId: number | null, page: PageRequest) {
    let q = this.db.selectFrom('user_warnings');
    if (userId !== null) q = q.where('user_id', '=', userId);
    const { rows, total } = await pagedWithTotal(q, page, (f) => f.selectAll().orderBy('id', 'desc'));
    return { items: rows.map(toWarning), total };
  }

  async bans(page: PageRequest) {
    const { rows, total } = await pagedWithTotal(this.db.selectFrom('user_bans'), page, (q) => q.selectAll().orderBy('id', 'desc'));
    return { items: rows.map(toBan), total };
  }
}
