import { type PageRequest } from '@plaza/domain';
import type { ModerationActionRecord, ModerationActionType, ModerationLog, NewModerationAction } from '@plaza/domain/moderation';
import type { Kysely } from 'kysely';
import { insertedId } from '../dialect.js';
import type { Database } from '../database.js';
import { pagedWithTotal } from '../paged-list.js';

export class SqlModerationLog implements ModerationLog {
  constructor(private readonly db: Kysely<Database>) {}

  async record(action: NewModerationAction): Promise<ModerationActionRecord> {
    const id = insertedId(
      await this.db
        .insertInto('moderation_actions')
        .values({ ...action, by_vote: action.by_vote ? 1 : 0 })
        .executeTakeFirstOrThrow(),
    );
    return { id, ...action };
  }

  async list(page: PageRequest) {
    const { rows, total } = await pagedWithTotal(this.db.selectFrom('moderation_actions'), page, (q) =>
      q.selectAll().orderBy('id', 'desc'),
    );
    return {
      items: rows.map((r) => ({ ...r, id: Number(r.id), action_type: r.action_type as ModerationActionType, by_vote: Boolean(r.by_vote) })),
      total,
    };
  }
}
