import { describe, expect, it } from 'vitest';
import type { UserRepository } from '../ports.js';
import type { ProfileStatsReader } from '../profile-service.js';
import type { PostRepository } from '../../content/ports.js';
import type { FollowRepository, FriendRequestRepository } from '../../social/ports.js';
import type { RemoteFollowRepository } from '../../federation/ports.js';
import { aNewUser } from './mothers.js';

export interface ProfileStatsPorts {
  users: UserRepository;
  follows: FollowRepository;
  friends: FriendRequestRepository;
  posts: PostRepository;
  remote: RemoteFollowRepository;
  stats: ProfileStatsReader;
}

const statsOf = async (stats: ProfileStatsReader, userId: number, viewerId: number | null) =>
  (await stats.profileOf(userId, viewerId))?.stats;

/** The profile read view must agree with the relations the other ports write. */
export function profileStatsContract(name: string, make: () => Promise<ProfileStatsPorts>) {
  describe(`${name}: profile stats reader contract`, () => {
    it('reads the account with its counters, and nothing for an unknown id', async () => {
      const { users, stats } = await make();
      const a = await users.create(aNewUser());
      const found = await stats.profileOf(a.id, null);
      expect(found?.user).toEqual(await users.findById(a.id));
      expect(found?.stats).toMatchObject({ posts_count: 0, followers_count: 0, following_count: 0, is_following: false, is_friend: false });
      expect(await stats.profileOf(a.id + 1000, a.id)).toBeNull();
    });

    it('counts posts and follows, and shows the viewer’s relation', async () => {
      const { users, follows, posts, stats } = await make();
      const a = await users.create(aNewUser());
      const b = await users.create(aNewUser());
      await follows.follow(a.id, b.id, '2026-01-01 00:00:00');
      for (const content of ['one', 'two']) {
        await posts.create({ user_id: b.id, content, media: [], media_type: null, tags: [], created_at: '2026-01-01 00:00:00' });
      }
      expect(await statsOf(stats, b.id, a.id)).toMatchObject({
        posts_count: 2,
        followers_count: 1,
        following_count: 0,
        is_following: true,
        is_followed_by: false,
      });
      expect(await statsOf(stats, a.id, b.id)).toMatchObject({
        posts_count: 0,
        following_count: 1,
        is_following: false,
        is_followed_by: true,
      });
      expect(await statsOf(stats, b.id, null)).toMatchObject({ is_following: false, sent_request_id: null, received_request_id: null });
    });

    it('counts followers on other servers and the accounts there the user follows, pending or accepted', async () => {
      const { users, remote, stats } = await make();
      const a = await users.create(aNewUser());
      const b = await users.create(aNewUser());
      const at = '2026-01-01 00:00:00';
      for (const n of [1, 2, 3])
        await remote.addFollower({
          user_id: a.id,
          actor_url: `https://elsewhere.test/users/f${n}`,
          follow_id: `https://elsewhere.test/follows/${n}`,
          followed_at: at,
        });
      await remote.addFollowing({
        user_id: a.id,
        actor_url: 'https://elsewhere.test/users/g',
        follow_id: `https://plaza.test/follows/${a.id}`,
        accepted: false,
        followed_at: at,
      });
      await remote.addFollower({
        user_id: b.id,
        actor_url: 'https://elsewhere.test/users/f1',
        follow_id: 'https://elsewhere.test/follows/b',
        followed_at: at,
      });
      expect(await statsOf(stats, a.id, a.id)).toMatchObject({ remote_followers_count: 3, remote_following_count: 1 });
      expect(await statsOf(stats, a.id, b.id)).toMatchObject({ remote_followers_count: 3, remote_following_count: 1 });
      expect(await statsOf(stats, b.id, null)).toMatchObject({ remote_followers_count: 1, remote_following_count: 0 });
    });

    it('reads one’s own profile with no relation to oneself, whatever others have', async () => {
      const { users, follows, friends, stats } = await make();
      const a = await users.create(aNewUser());
      const b = await users.create(aNewUser());
      await follows.follow(a.id, b.id, '2026-01-01 00:00:00');
      await follows.follow(b.id, a.id, '2026-01-01 00:00:00');
      await friends.create(b.id, a.id, '2026-01-01 00:00:00');
      expect(await statsOf(stats, a.id, a.id)).toEqual({
        posts_count: 0,
        followers_count: 1,
        following_count: 1,
        remote_followers_count: 0,
        remote_following_count: 0,
        is_following: false,
        is_followed_by: false,
        is_friend: false,
        sent_request_id: null,
        received_request_id: null,
      });
      expect(await statsOf(stats, b.id, a.id)).toMatchObject({
        is_following: true,
        is_followed_by: true,
        received_request_id: expect.any(Number),
      });
    });

    it('shows pending requests to each side, then the friendship', async () => {
      const { users, friends, stats } = await make();
      const a = await users.create(aNewUser());
      const b = await users.create(aNewUser());
      const request = await friends.create(a.id, b.id, '2026-01-01 00:00:00');
      expect(await statsOf(stats, b.id, a.id)).toMatchObject({ sent_request_id: request.id, received_request_id: null, is_friend: false });
      expect(await statsOf(stats, a.id, b.id)).toMatchObject({ sent_request_id: null, received_request_id: request.id, is_friend: false });
      await friends.setStatus(request.id, 'accepted', '2026-01-02 00:00:00');
      expect(await statsOf(stats, b.id, a.id)).toMatchObject({ sent_request_id: null, received_request_id: null, is_friend: true });
      expect(await statsOf(stats, a.id, b.id)).toMatchObject({ is_friend: true });
    });
  });
}
