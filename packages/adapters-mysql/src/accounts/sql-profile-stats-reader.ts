import type { ProfileStats, ProfileStatsReader } from '@plaza/domain';
import type { Kysely } from 'kysely';
import type { Database } from '../schema/index.js';

/**
 * Profile counters and the viewer's relation to the profile, in one round trip. Features that add
 * relations (posts, friends) add their sub-selects here.
 */
export class SqlProfileStatsReader implements ProfileStatsReader {
  constructor(private readonly db: Kysely<Database>) {}

  async statsFor(userId: number, viewerId: number | null): Promise<ProfileStats> {
    const viewer = viewerId ?? 0;
    const row = await this.db
      .selectNoFrom((eb) => [
        eb.selectFrom('follows').select(eb.fn.countAll<number>().as('n')).where('followee_id', '=', userId).as('followers_count'),
        eb.selectFrom('follows').select(eb.fn.countAll<number>().as('n')).where('follower_id', '=', userId).as('following_count'),
        eb
          .selectFrom('follows')
          .select(eb.fn.countAll<number>().as('n'))
          .where('follower_id', '=', viewer)
          .where('followee_id', '=', userId)
          .as('is_following'),
        eb
          .selectFrom('follows')
          .select(eb.fn.countAll<number>().as('n'))
          .where('follower_id', '=', userId)
          .where('followee_id', '=', viewer)
          .as('is_followed_by'),
      ])
      .executeTakeFirstOrThrow();
    return {
      posts_count: 0,
      followers_count: Number(row.followers_count),
      following_count: Number(row.following_count),
      is_following: Number(row.is_following) > 0,
      is_followed_by: Number(row.is_followed_by) > 0,
      is_friend: false,
      sent_request_id: null,
      received_request_id: null,
    };
  }
}
