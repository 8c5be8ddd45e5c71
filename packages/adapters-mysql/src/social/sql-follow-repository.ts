import { type PageRequest, type Timestamp, offsetOf } from '@plaza/domain';
import type { FollowRepository } from '@plaza/domain/social';
import type { Kysely } from 'kysely';
import { insertIfAbsent } from '../dialect.js';
import type { Database } from '../database.js';

export class SqlFollowRepository implements FollowRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async follow(followerId: number, followeeId: number, at: Timestamp) {
    return insertIfAbsent(this.db, 'follows', { follower_id: followerId, followee_id: followeeId, created_at: at });
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

  async followerIds(userId: number, page: PageRequest) {
    return this.page('followee_id', 'follower_id', userId, page);
  }

  async followingIds(userId: number, page: PageRequest) {
    return this.page('follower_id', 'followee_id', userId, page);
  }

  private async page(by: 'follower_id' | 'followee_id', other: 'follower_id' | 'followee_id', userId: number, page: PageRequest) {
    const rows = await this.db
      .selectFrom('follows')
      .select(other)
      .where(by, '=', userId)
      .orderBy('created_at', 'desc')
      .orderBy(other, 'desc')
      .limit(page.perPage)
      .offset(offsetOf(page))
      .execute();
    const count = await this.db
      .selectFrom('follows')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where(by, '=', userId)
      .executeTakeFirstOrThrow();
    return { ids: rows.map((r) => Number(r[other])), total: Number(count.n) };
  }
}
