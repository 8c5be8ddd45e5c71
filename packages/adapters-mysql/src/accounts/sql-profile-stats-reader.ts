import type { ProfileStats, ProfileStatsReader, UserRecord } from '@plaza/domain/accounts';
import { toUserRecord } from './sql-user-repository.js';
import type { Kysely } from 'kysely';
import type { Database } from '../database.js';
import { prepared } from '../prepared.js';

/**
 * An account with its counters and the viewer's relation to it, in one round trip. Features that add
 * relations (posts, friends) add their sub-selects here.
 */
export class SqlProfileStatsReader implements ProfileStatsReader {
  constructor(private readonly db: Kysely<Database>) {}

  /** Read with every profile shown: built once (prepared.ts). */
  private readonly profileQuery = prepared((userId: number, viewer: number) =>
    this.db
      .selectFrom('users as u')
      .selectAll('u')
      .where('u.id', '=', userId)
      .select((eb) => [
        eb.selectFrom('posts').select(eb.fn.countAll<number>().as('n')).where('user_id', '=', userId).as('posts_count'),
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
        eb
          .selectFrom('friend_requests')
          .select(eb.fn.countAll<number>().as('n'))
          .where('status', '=', 'accepted')
          .where((w) =>
            w.or([
              w.and([w('sender_id', '=', viewer), w('receiver_id', '=', userId)]),
              w.and([w('sender_id', '=', userId), w('receiver_id', '=', viewer)]),
            ]),
          )
          .as('is_friend'),
        eb
          .selectFrom('friend_requests')
          .select('id')
          .where('sender_id', '=', viewer)
          .where('receiver_id', '=', userId)
          .where('status', '=', 'pending')
          .as('sent_request_id'),
        eb
          .selectFrom('friend_requests')
          .select('id')
          .where('sender_id', '=', userId)
          .where('receiver_id', '=', viewer)
          .where('status', '=', 'pending')
          .as('received_request_id'),
      ]),
  );

  async profileOf(userId: number, viewerId: number | null): Promise<{ user: UserRecord; stats: ProfileStats } | null> {
    const [found] = await this.profileQuery(this.db, userId, viewerId ?? 0);
    if (!found) return null;
    const { posts_count, followers_count, following_count, is_following, is_followed_by, is_friend, sent_request_id, received_request_id, ...user } = found;
    const row = { posts_count, followers_count, following_count, is_following, is_followed_by, is_friend, sent_request_id, received_request_id };
    return { user: toUserRecord(user), stats: {
      posts_count: Number(row.posts_count),
      followers_count: Number(row.followers_count),
      following_count: Number(row.following_count),
      is_following: Number(row.is_following) > 0,
      is_followed_by: Number(row.is_followed_by) > 0,
      is_friend: Number(row.is_friend) > 0,
      sent_request_id: row.sent_request_id === null || row.sent_request_id === undefined ? null : Number(row.sent_request_id),
      received_request_id: row.received_request_id === null || row.received_request_id === undefined ? null : Number(row.received_request_id),
    } };
  }
}
