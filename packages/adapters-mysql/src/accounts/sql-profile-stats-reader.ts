import type { ProfileStats, ProfileStatsReader, UserRecord } from '@plaza/domain/accounts';
import { toUserRecord } from './sql-user-repository.js';
import type { Kysely } from 'kysely';
import type { Database } from '../database.js';
import { prepared } from '../prepared.js';
import { remoteFollowCounts } from '../federation/sql-federation.js';

/** The relation subqueries' columns, as the viewer's own profile has them: nobody follows or befriends themselves. */
const OWN_RELATIONS = { is_following: 0, is_followed_by: 0, is_friend: 0, sent_request_id: null, received_request_id: null };

/**
 * An account with its counters and the viewer's relation to it, in one round trip. Features that add
 * relations (posts, friends, federation's remote follows) add their sub-selects here.
 */
export class SqlProfileStatsReader implements ProfileStatsReader {
  constructor(private readonly db: Kysely<Database>) {}

  /** The account and its counters: the whole of one's own profile, which users.php reads most. */
  private counters(userId: number) {
    const remote = remoteFollowCounts(this.db, userId);
    return this.db
      .selectFrom('users as u')
      .selectAll('u')
      .where('u.id', '=', userId)
      .select((eb) => [
        eb.selectFrom('posts').select(eb.fn.countAll<number>().as('n')).where('user_id', '=', userId).as('posts_count'),
        eb.selectFrom('follows').select(eb.fn.countAll<number>().as('n')).where('followee_id', '=', userId).as('followers_count'),
        eb.selectFrom('follows').select(eb.fn.countAll<number>().as('n')).where('follower_id', '=', userId).as('following_count'),
        remote.followers.as('remote_followers_count'),
        remote.following.as('remote_following_count'),
      ]);
  }

  /** One's own profile: built once (prepared.ts). */
  private readonly ownQuery = prepared((userId: number) => this.counters(userId));

  /** Another's profile, with the viewer's relation to it: built once (prepared.ts). */
  private readonly othersQuery = prepared((userId: number, viewer: number) =>
    this.counters(userId).select((eb) => {
      const follows = (from: number, to: number) =>
        eb.selectFrom('follows').select(eb.fn.countAll<number>().as('n')).where('follower_id', '=', from).where('followee_id', '=', to);
      const pending = (from: number, to: number) =>
        eb
          .selectFrom('friend_requests')
          .select('id')
          .where('sender_id', '=', from)
          .where('receiver_id', '=', to)
          .where('status', '=', 'pending');
      return [
        follows(viewer, userId).as('is_following'),
        follows(userId, viewer).as('is_followed_by'),
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
        pending(viewer, userId).as('sent_request_id'),
        pending(userId, viewer).as('received_request_id'),
      ];
    }),
  );

  async profileOf(userId: number, viewerId: number | null): Promise<{ user: UserRecord; stats: ProfileStats } | null> {
    const [found] =
      viewerId === userId
        ? (await this.ownQuery(this.db, userId)).map((r) => ({ ...r, ...OWN_RELATIONS }))
        : await this.othersQuery(this.db, userId, viewerId ?? 0);
    if (!found) return null;
    const {
      posts_count,
      followers_count,
      following_count,
      remote_followers_count,
      remote_following_count,
      is_following,
      is_followed_by,
      is_friend,
      sent_request_id,
      received_request_id,
      ...user
    } = found;
    const id = (v: number | null | undefined) => (v === null || v === undefined ? null : Number(v));
    return {
      user: toUserRecord(user),
      stats: {
        posts_count: Number(posts_count),
        followers_count: Number(followers_count),
        following_count: Number(following_count),
        remote_followers_count: Number(remote_followers_count),
        remote_following_count: Number(remote_following_count),
        is_following: Number(is_following) > 0,
        is_followed_by: Number(is_followed_by) > 0,
        is_friend: Number(is_friend) > 0,
        sent_request_id: id(sent_request_id),
        received_request_id: id(received_request_id),
      },
    };
  }
}
