import type { Timestamp } from '@plaza/domain';
import type { StoryRecord, StoryRepository } from '@plaza/domain/content';
import type { Kysely } from 'kysely';
import { insertedId } from '../dialect.js';
import type { Database } from '../database.js';

export class SqlStoryRepository implements StoryRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async create(story: Omit<StoryRecord, 'id'>) {
    const id = insertedId(await this.db.insertInto('stories').values(story).executeTakeFirstOrThrow());
    return { id, ...story };
  }

  async findById(id: number) {
    return (await this.db.selectFrom('stories').selectAll().where('id', '=', id).executeTakeFirst()) ?? null;
  }

  async delete(id: number) {
    await this.db.deleteFrom('stories').where('id', '=', id).execute();
  }

  async activeOf(userIds: number[], now: Timestamp) {
    if (userIds.length === 0) return [];
    return this.db
      .selectFrom('stories')
      .selectAll()
      .where('user_id', 'in', userIds)
      .where('expires_at', '>', now)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
  }

  async activeForViewer(viewerId: number, now: Timestamp) {
    return this.db
      .selectFrom('stories')
      .selectAll()
      .where((eb) =>
        eb.or([
          eb('user_id', '=', viewerId),
          eb('user_id', 'in', eb.selectFrom('follows').select('followee_id').where('follower_id', '=', viewerId)),
        ]),
      )
      .where('expires_at', '>', now)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(500)
      .execute();
  }

  async purgeExpired(now: Timestamp) {
    const result = await this.db.deleteFrom('stories').where('expires_at', '<=', now).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
