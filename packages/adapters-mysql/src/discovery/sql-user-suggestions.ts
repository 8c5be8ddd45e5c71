import { offsetOf, type PageRequest } from '@plaza/domain';
import type { UserSuggestions } from '@plaza/domain/discovery';
import { type Expression, type ExpressionBuilder, type Kysely, type SqlBool, sql } from 'kysely';
import type { Database } from '../database.js';
import type { SqlDialect } from '../dialect.js';

type Users = ExpressionBuilder<Database, 'users'>;

/**
 * discover.php's accounts, each list one index range: the primary key for the newest and the random
 * pick, `users_cause` for a cause. The viewer's own account, those they follow (follows' primary key)
 * and deleted ones are left out in the same query.
 */
export class SqlUserSuggestions implements UserSuggestions {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: SqlDialect,
  ) {}

  async newest(viewerId: number, page: PageRequest) {
    const rows = await this.candidates(viewerId).orderBy('users.id', 'desc').limit(page.perPage).offset(offsetOf(page)).execute();
    return rows.map((r) => Number(r.id));
  }

  async sameCause(viewerId: number, cause: string, page: PageRequest) {
    // MySQL's collation compares without case already; SQLite's index is `collate nocase`.
    const sameCause = this.dialect === 'mysql' ? sql<SqlBool>`users.cause = ${cause}` : sql<SqlBool>`users.cause = ${cause} collate nocase`;
    const rows = await this.candidates(viewerId)
      .where(sameCause)
      .orderBy('users.id', 'desc')
      .limit(page.perPage)
      .offset(offsetOf(page))
      .execute();
    return rows.map((r) => Number(r.id));
  }

  /**
   * From a random id on, then from the start: two primary-key ranges instead of `ORDER BY RAND()`,
   * which reads and sorts every account. Accounts after a gap in the ids come up a little more often.
   */
  async random(viewerId: number, limit: number, exclude: readonly number[]) {
    const top = await this.db
      .selectFrom('users')
      .select((eb) => eb.fn.max('id').as('id'))
      .executeTakeFirst();
    const max = Number(top?.id ?? 0);
    if (max === 0 || limit <= 0) return [];
    const pivot = 1 + Math.floor(Math.random() * max);
    const skip = [...exclude, 0];
    const from = (range: (eb: Users) => Expression<SqlBool>, n: number) =>
      this.candidates(viewerId).where('users.id', 'not in', skip).where(range).orderBy('users.id').limit(n).execute();
    const after = await from((eb) => eb('users.id', '>=', pivot), limit);
    const before = after.length < limit ? await from((eb) => eb('users.id', '<', pivot), limit - after.length) : [];
    return [...after, ...before].map((r) => Number(r.id));
  }

  private candidates(viewerId: number) {
    return this.db
      .selectFrom('users')
      .select('users.id')
      .where('users.id', '<>', viewerId)
      .where('users.deleted_at', 'is', null)
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('follows as f')
              .select('f.followee_id')
              .where('f.follower_id', '=', viewerId)
              .whereRef('f.followee_id', '=', 'users.id'),
          ),
        ),
      );
  }
}
