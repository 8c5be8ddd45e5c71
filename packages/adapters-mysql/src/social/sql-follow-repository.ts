import type { FollowRepository, Timestamp } from '@plaza/domain';
import type { Kysely } from 'kysely';
import type { Database } from '../schema/index.js';

export class SqlFollowRepository implements FollowRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async follow(followerId: number, followeeId: number, at: Timestamp) {
    const result = await this.db
      .insertInto('follows')
      .ignore()
      .values({ follower_id: followerId, followee_id: followeeId, created_at: at })
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  async unfollow(followerId: number, followeeId: number) {
    const result = await this.db
      .deleteFrom('follows')
      .where('follower_id', '=', followerId)
      .where('followee_id', '=', followeeId)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async isFollowing(followerId: number, followeeId: number) {
    const row = await this.db
      .selectFrom('follows')
      .select('follower_id')
      .where('follower_id', '=', followerId)
      .where('followee_id', '=', followeeId)
      .executeTakeFirst();
    return row !== undefined;
  }
}
