import type { AuthChangePublisher } from '@plaza/domain/accounts';
import { type PageRequest, offsetOf } from '@plaza/domain';
import type { ModeratorRoster } from '@plaza/domain/moderation';
import type { Kysely } from 'kysely';
import type { Database } from '../database.js';

/**
 * The moderator role on the accounts table. Who is a moderator is `isModerator` (accounts/user.ts):
 * the `is_moderator` flag or the admin flag. The list filters the same in SQL, as the union of two
 * index ranges (users_moderators, users_admins).
 */
export class SqlModeratorRoster implements ModeratorRoster {
  constructor(
    private readonly db: Kysely<Database>,
    /** Told of every change an account's sessions show (docs/decisions/0150). */
    private readonly sessions?: AuthChangePublisher,
  ) {}

  async setModerator(userId: number, on: boolean) {
    await this.db
      .updateTable('users')
      .set({ is_moderator: on ? 1 : 0 })
      .where('id', '=', userId)
      .execute();
    await this.sessions?.publish(userId);
  }

  async moderatorIds(page: PageRequest) {
    const flagged = () =>
      this.db
        .selectFrom('users')
        .select('id')
        .where('is_moderator', '=', 1)
        .union(this.db.selectFrom('users').select('id').where('is_admin', '=', 1));
    const rows = await flagged().orderBy('id').limit(page.perPage).offset(offsetOf(page)).execute();
    const { n } = await this.db
      .selectFrom(flagged().as('m'))
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return { ids: rows.map((r) => Number(r.id)), total: Number(n) };
  }
}
