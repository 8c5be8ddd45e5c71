import { describe, expect, it } from 'vitest';
import type { UserRepository } from '../../accounts/ports.js';
import type { CommentRepository, PostEngagementRepository, PostRepository, StoryRepository } from '../ports.js';
import type { NotificationInbox } from '../../notifications/inbox.js';
import type { NotificationRepository } from '../../notifications/ports.js';
import type { FollowRepository } from '../../social/ports.js';
import { aNewUser } from '../../accounts/testing/mothers.js';
import { canSeePost, type Viewer } from '../visibility.js';

export interface ContentPorts {
  users: UserRepository;
  follows: FollowRepository;
  posts: PostRepository;
  engagement: PostEngagementRepository;
  comments: CommentRepository;
  stories: StoryRepository;
  notifications: NotificationRepository;
  inbox: NotificationInbox;
  /** Opens and decides a report on a post (the moderation context's), as the visibility rule reads them. */
  reports: { open(postId: number): Promise<void>; close(postId: number): Promise<void> };
}

const page = (p: number, perPage = 20) => ({ page: p, perPage });
/** A plain account looking at lists: neither the author of everything nor a moderator. */
const reader = (u: { id: number }): Viewer => ({ userId: u.id, moderator: false });
const at = (minute: number) => `2026-02-01 10:${String(minute).padStart(2, '0')}:00`;

/** The behaviour every implementation of the content ports must share, fake or SQL. */
export function contentContract(name: string, make: () => Promise<ContentPorts>) {
  describe(`${name}: content ports contract`, () => {
    it('creates posts, finds, updates and deletes them', async () => {
      const { users, posts } = await make();
      const u = await users.create(aNewUser());
      const p = await posts.create({
        user_id: u.id,
        content: 'hi',
        media: ['media_a.jpg'],
        media_type: 'image',
        tags: ['x'],
        created_at: at(1),
      });
      expect(p).toMatchObject({ user_id: u.id, content: 'hi', media: ['media_a.jpg'], likes_count: 0, comments_count: 0, shares_count: 0 });
      await posts.update(p.id, { content: 'edited', tags: ['y'], updated_at: at(2) });
      expect(await posts.findById(p.id)).toMatchObject({ content: 'edited', tags: ['y'], updated_at: at(2), media: ['media_a.jpg'] });
      expect(await posts.countByUser(u.id)).toBe(1);
      await posts.delete(p.id);
      expect(await posts.findById(p.id)).toBeNull();
      expect(await posts.wall(u.id, reader(u), page(1))).toEqual([]);
    });

    it("puts a share of a group's or page's post on a wall, listed only by its surface's rule, apart from the wall post of that id", async () => {
      const { users, posts, engagement } = await make();
      const u = await users.create(aNewUser());
      const p = await posts.create({ user_id: u.id, content: 'hi', media: [], media_type: null, tags: [], created_at: at(1) });
      const sharer = await users.create(aNewUser());
      await engagement.share(p.id, sharer.id, at(2));
      // The same id as a group post's: another entry, in another id space (docs/decisions/0230).
      const entry = await posts.addSurfaceShare('group', p.id, sharer.id, at(3));
      expect(entry).toEqual(expect.any(Number));
      expect(entry).not.toBe(p.wall_entry_id);
      // No group post has that id here: its surface's rule shows it to no one, and the wall post's share shows as before.
      expect(await posts.wall(sharer.id, reader(sharer), page(1))).toEqual([{ post_id: p.id, shared_by: sharer.id, feed_date: at(2) }]);
      // The wall post's deletion takes its entries only.
      await posts.delete(p.id);
      expect(await posts.wall(sharer.id, reader(sharer), page(1))).toEqual([]);
      expect(await posts.wall(u.id, reader(u), page(1))).toEqual([]);
    });

    it('reads authors by id with their avatar, badges and privacy, skipping unknown ids', async () => {
      const { users, posts } = await make();
      const a = await users.create(aNewUser({ is_admin: true }));
      const b = await users.create(aNewUser());
      await users.updateProfile(b.id, { avatar: 'avatar_b.jpg', militant_badge: 'founder' });
      expect((await posts.authors([])).size).toBe(0);
      const authors = await posts.authors([b.id, 999_999, a.id]);
      expect([...authors.keys()].sort((x, y) => x - y)).toEqual([a.id, b.id]);
      expect(authors.get(a.id)).toEqual({
        id: a.id,
        username: a.username,
        avatar: null,
        militant_badge: null,
        is_technician: false,
        is_admin: true,
        is_moderator: false,
        is_private: false,
      });
      expect(authors.get(b.id)).toEqual({
        id: b.id,
        username: b.username,
        avatar: 'avatar_b.jpg',
        militant_badge: 'founder',
        is_technician: false,
        is_admin: false,
        is_moderator: false,
        is_private: false,
      });
    });

    it('builds walls and feeds newest first with shares, and global lists posts only', async () => {
      const { users, follows, posts, engagement } = await make();
      const [me, friend, stranger] = [await users.create(aNewUser()), await users.create(aNewUser()), await users.create(aNewUser())];
      await follows.follow(me.id, friend.id, at(0));
      const mine = await posts.create({ user_id: me.id, content: 'mine', media: [], media_type: null, tags: [], created_at: at(1) });
      const theirs = await posts.create({
        user_id: friend.id,
        content: 'theirs',
        media: [],
        media_type: null,
        tags: [],
        created_at: at(2),
      });
      const other = await posts.create({
        user_id: stranger.id,
        content: 'other',
        media: [],
        media_type: null,
        tags: [],
        created_at: at(3),
      });
      // Each new wall entry's id comes back to its writer (the timeline fans it out); a repeated share makes none.
      const shareEntry = await engagement.share(other.id, friend.id, at(4));
      expect(shareEntry).toEqual(expect.any(Number));
      expect(new Set([mine.wall_entry_id, theirs.wall_entry_id, other.wall_entry_id, shareEntry]).size).toBe(4);
      expect(await engagement.share(other.id, friend.id, at(5))).toBeNull();
      expect((await posts.findById(other.id))?.shares_count).toBe(1);
      const feed = await posts.feed(reader(me), page(1));
      expect(feed).toEqual([
        { post_id: other.id, shared_by: friend.id, feed_date: at(4) },
        { post_id: theirs.id, shared_by: null, feed_date: at(2) },
        { post_id: mine.id, shared_by: null, feed_date: at(1) },
      ]);
      expect((await posts.wall(friend.id, reader(me), page(1))).map((e) => e.post_id)).toEqual([other.id, theirs.id]);
      const ours = [other.id, theirs.id, mine.id];
      expect((await posts.global(reader(me), page(1, 100))).map((e) => e.post_id).filter((id) => ours.includes(id))).toEqual(ours);
      expect(await posts.feed(reader(me), page(1, 2))).toHaveLength(3); // perPage + 1 tells there is more
      expect((await posts.feed(reader(me), page(2, 2))).map((e) => e.post_id)).toEqual([mine.id]);
      const views = await posts.views(feed, me.id);
      expect(views.map((v) => [v.post.id, v.author.id, v.shared_by_username])).toEqual([
        [other.id, stranger.id, friend.username],
        [theirs.id, friend.id, null],
        [mine.id, me.id, null],
      ]);
    });

    it('keeps one reaction per user with the counter in step, even concurrently', async () => {
      const { users, posts, engagement } = await make();
      const author = await users.create(aNewUser());
      const p = await posts.create({ user_id: author.id, content: 'x', media: [], media_type: null, tags: [], created_at: at(1) });
      const fans = await Promise.all(Array.from({ length: 12 }, () => users.create(aNewUser())));
      const outcomes = await Promise.all(fans.map((f) => engagement.react(p.id, f.id, 'like', at(2))));
      expect(outcomes.every((o) => o === 'added')).toBe(true);
      expect(await engagement.react(p.id, fans[0].id, 'love', at(3))).toBe('changed');
      expect(await engagement.react(p.id, fans[0].id, 'love', at(3))).toBe('unchanged');
      expect((await posts.findById(p.id))?.likes_count).toBe(12);
      expect(await engagement.reactionCounts(p.id)).toEqual({ like: 11, love: 1 });
      expect(await engagement.reactionsBy(fans[0].id, [p.id, p.id + 1000])).toEqual(new Map([[p.id, 'love']]));
      expect(await engagement.reactionsBy(author.id, [p.id])).toEqual(new Map());
      await Promise.all(fans.slice(0, 5).map((f) => engagement.unreact(p.id, f.id)));
      expect(await engagement.unreact(p.id, fans[0].id)).toBe(false);
      expect((await posts.findById(p.id))?.likes_count).toBe(7);
      const [view] = await posts.views([{ post_id: p.id, shared_by: null, feed_date: at(1) }], fans[6].id);
      expect(view).toMatchObject({ is_liked: true, reaction_type: 'like', is_bookmarked: false });
    });

    it('bookmarks idempotently and lists newest bookmark first', async () => {
      const { users, posts, engagement } = await make();
      const u = await users.create(aNewUser());
      const a = await posts.create({ user_id: u.id, content: 'a', media: [], media_type: null, tags: [], created_at: at(1) });
      const b = await posts.create({ user_id: u.id, content: 'b', media: [], media_type: null, tags: [], created_at: at(2) });
      expect(await engagement.bookmark(a.id, u.id, at(3))).toBe(true);
      expect(await engagement.bookmark(a.id, u.id, at(4))).toBe(false);
      expect(await engagement.bookmark(b.id, u.id, at(5))).toBe(true);
      expect((await posts.bookmarked(reader(u), page(1))).map((e) => e.post_id)).toEqual([b.id, a.id]);
      expect(await engagement.unbookmark(a.id, u.id)).toBe(true);
      expect(await engagement.unbookmark(a.id, u.id)).toBe(false);
      expect((await posts.bookmarked(reader(u), page(1))).map((e) => e.post_id)).toEqual([b.id]);
    });

    it('stores comment trees, counts them on the post and deletes replies with their parent', async () => {
      const { users, posts, comments } = await make();
      const u = await users.create(aNewUser());
      const p = await posts.create({ user_id: u.id, content: 'x', media: [], media_type: null, tags: [], created_at: at(1) });
      const root = await comments.create({ post_id: p.id, user_id: u.id, parent_id: null, content: 'root', created_at: at(2) });
      const reply = await comments.create({ post_id: p.id, user_id: u.id, parent_id: root.id, content: 'reply', created_at: at(3) });
      await comments.create({ post_id: p.id, user_id: u.id, parent_id: reply.id, content: 'deep', created_at: at(4) });
      const other = await comments.create({ post_id: p.id, user_id: u.id, parent_id: null, content: 'other', created_at: at(5) });
      expect((await comments.roots(p.id, page(1))).map((c) => c.id)).toEqual([root.id, other.id]);
      expect((await comments.replies(p.id, [root.id])).map((c) => c.content)).toEqual(['reply']);
      expect((await comments.replies(p.id, [reply.id])).map((c) => c.content)).toEqual(['deep']);
      expect((await comments.replies(p.id, [root.id, reply.id, other.id])).map((c) => c.content)).toEqual(['reply', 'deep']);
      expect((await posts.findById(p.id))?.comments_count).toBe(4);
      await comments.update(other.id, 'changed', at(6));
      expect(await comments.findById(other.id)).toMatchObject({ content: 'changed', updated_at: at(6) });
      expect(await comments.react('post', reply.id, u.id, 'like', at(7))).toBe('added');
      expect((await comments.findById(reply.id))?.reactions_count).toBe(1);
      expect(await comments.reactedBy('post', [root.id, reply.id], u.id)).toEqual(new Set([reply.id]));
      // The thread's lock, then the removal, in one unit as the comment service takes them.
      await comments.lockThread(p.id);
      await comments.delete(root.id);
      expect(await comments.replies(p.id, [root.id, reply.id])).toEqual([]);
      // The reply's reaction goes with it.
      expect(await comments.reactions('post', reply.id)).toEqual([]);
      expect((await posts.findById(p.id))?.comments_count).toBe(1);
    });

    it('keeps one reaction per user per comment', async () => {
      const { users, posts, comments } = await make();
      const u = await users.create(aNewUser());
      const v = await users.create(aNewUser());
      const p = await posts.create({ user_id: u.id, content: 'x', media: [], media_type: null, tags: [], created_at: at(1) });
      const c = await comments.create({ post_id: p.id, user_id: u.id, parent_id: null, content: 'c', created_at: at(2) });
      expect(await comments.react('post', c.id, v.id, 'like', at(3))).toBe('added');
      expect(await comments.react('post', c.id, v.id, 'wow', at(4))).toBe('changed');
      expect(await comments.react('post', c.id, u.id, 'like', at(5))).toBe('added');
      expect((await comments.findById(c.id))?.reactions_count).toBe(2);
      expect((await comments.reactions('post', c.id)).map((r) => [r.user_id, r.reaction_type])).toEqual([
        [v.id, 'wow'],
        [u.id, 'like'],
      ]);
      expect(await comments.unreact('post', c.id, v.id)).toBe(true);
      expect(await comments.unreact('post', c.id, v.id)).toBe(false);
      expect((await comments.findById(c.id))?.reactions_count).toBe(1);
      expect(await comments.countReactions('post', [c.id, c.id + 1000])).toEqual(new Map([[c.id, 1]]));
    });

    it('counts reactions of other comment types in their own id space', async () => {
      const { users, comments } = await make();
      const u = await users.create(aNewUser());
      const v = await users.create(aNewUser());
      // Comment 1 of type group is no post comment: no row of `comments` is needed or touched.
      expect(await comments.react('group', 1, u.id, 'like', at(1))).toBe('added');
      expect(await comments.react('group', 1, v.id, 'love', at(2))).toBe('added');
      expect(await comments.react('group', 2, v.id, 'love', at(3))).toBe('added');
      expect(await comments.countReactions('group', [1, 2, 3])).toEqual(
        new Map([
          [1, 2],
          [2, 1],
        ]),
      );
      expect(await comments.countReactions('post', [1, 2])).toEqual(new Map());
      expect(await comments.countReactions('group', [])).toEqual(new Map());
      expect(await comments.unreact('group', 1, u.id)).toBe(true);
      expect(await comments.countReactions('group', [1])).toEqual(new Map([[1, 1]]));
    });

    it('returns only unexpired stories of the viewer and followed accounts, and purges expired ones', async () => {
      const { users, follows, stories } = await make();
      const [me, friend, stranger] = [await users.create(aNewUser()), await users.create(aNewUser()), await users.create(aNewUser())];
      await follows.follow(me.id, friend.id, at(0));
      const old = await stories.create({ user_id: friend.id, media: 'story_1.jpg', text: '', created_at: at(1), expires_at: at(10) });
      const fresh = await stories.create({ user_id: friend.id, media: 'story_2.jpg', text: 't', created_at: at(5), expires_at: at(30) });
      const mine = await stories.create({ user_id: me.id, media: 'story_3.jpg', text: '', created_at: at(6), expires_at: at(31) });
      await stories.create({ user_id: stranger.id, media: 'story_4.jpg', text: '', created_at: at(6), expires_at: at(31) });
      expect((await stories.activeForViewer(me.id, at(9))).map((s) => s.id)).toEqual([mine.id, fresh.id, old.id]);
      expect((await stories.activeForViewer(me.id, at(10))).map((s) => s.id)).toEqual([mine.id, fresh.id]);
      expect((await stories.activeOf([friend.id], at(11))).map((s) => s.id)).toEqual([fresh.id]);
      expect(await stories.purgeExpired(at(10))).toBe(1);
      expect(await stories.findById(old.id)).toBeNull();
      await stories.delete(fresh.id);
      expect(await stories.findById(fresh.id)).toBeNull();
    });

    it('lists exactly the posts the visibility rule lets each viewer see, in every list', async () => {
      const { users, follows, posts, engagement, notifications, inbox, reports } = await make();
      const [pub, priv, sharer, follower, exFollower, stranger, moderator] = await Promise.all(
        Array.from({ length: 7 }, () => users.create(aNewUser())),
      );
      await users.setPrivacy(priv.id, { is_private: true });
      for (const u of [sharer, follower, exFollower]) await follows.follow(u.id, priv.id, at(0));
      const pubPost = await posts.create({ user_id: pub.id, content: 'public', media: [], media_type: null, tags: [], created_at: at(1) });
      const privPost = await posts.create({
        user_id: priv.id,
        content: 'followers only',
        media: [],
        media_type: null,
        tags: [],
        created_at: at(2),
      });
      await engagement.share(pubPost.id, sharer.id, at(3));
      await engagement.share(privPost.id, sharer.id, at(4));
      await follows.unfollow(exFollower.id, priv.id);
      // The moderators see the private post because a pending report names it.
      await reports.open(privPost.id);
      const viewers: Viewer[] = [...[priv, sharer, follower, exFollower, stranger].map(reader), { userId: moderator.id, moderator: true }];
      for (const v of viewers) {
        if (v.userId !== sharer.id) await follows.follow(v.userId, sharer.id, at(5));
        for (const p of [pubPost, privPost]) {
          await engagement.bookmark(p.id, v.userId, at(6));
          await notifications.create({ user_id: v.userId, from_user_id: sharer.id, type: 'share', post_id: p.id, created_at: at(7) });
        }
        await notifications.create({ user_id: v.userId, from_user_id: sharer.id, type: 'follow', created_at: at(8) });
      }

      const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
      const seenBy = new Map<number, number[]>();
      for (const v of viewers) {
        // What the domain's rule says, with the relation read from the follow port.
        const expected: number[] = [];
        for (const p of [pubPost, privPost]) {
          const audience = { kind: 'account' as const, authorId: p.user_id, isPrivate: p.user_id === priv.id };
          if (canSeePost(v, audience, { follows: await follows.isFollowing(v.userId, p.user_id), reported: await posts.underReport(p.id) }))
            expected.push(p.id);
        }
        seenBy.set(v.userId, expected);
        const who = `viewer ${v.userId}${v.moderator ? ' (moderator)' : ''}`;
        expect(sorted((await posts.bookmarked(v, page(1))).map((e) => e.post_id)), `bookmarks of ${who}`).toEqual(sorted(expected));
        expect(sorted((await posts.wall(sharer.id, v, page(1))).map((e) => e.post_id)), `sharer's wall for ${who}`).toEqual(
          sorted(expected),
        );
        const shared = (await posts.feed(v, page(1, 100))).filter((e) => e.shared_by === sharer.id);
        expect(sorted(shared.map((e) => e.post_id)), `shares in the feed of ${who}`).toEqual(sorted(expected));
        const global = (await posts.global(v, page(1, 100))).map((e) => e.post_id).filter((id) => id === pubPost.id || id === privPost.id);
        const listedByGlobal = expected.filter((id) => id === pubPost.id || v.userId === priv.id);
        expect(sorted(global), `global for ${who}`).toEqual(sorted(listedByGlobal));
        const listed = await inbox.list(v, page(1), false);
        expect(sorted(listed.flatMap((n) => (n.post_id === null ? [] : [n.post_id]))), `notifications of ${who}`).toEqual(sorted(expected));
        expect(listed.filter((n) => n.post_id === null)).toHaveLength(1);
        expect(await inbox.countUnread(v), `unread count of ${who}`).toBe(expected.length + 1);
      }
      // The rule itself: the private post reaches its author, a follower, a moderator; not the others.
      expect(seenBy.get(priv.id)).toEqual([pubPost.id, privPost.id]);
      expect(seenBy.get(sharer.id)).toEqual([pubPost.id, privPost.id]);
      expect(seenBy.get(follower.id)).toEqual([pubPost.id, privPost.id]);
      expect(seenBy.get(moderator.id)).toEqual([pubPost.id, privPost.id]);
      expect(seenBy.get(exFollower.id)).toEqual([pubPost.id]);
      expect(seenBy.get(stranger.id)).toEqual([pubPost.id]);

      // Once the report is decided, the moderator sees no more of the private account than anyone else.
      await reports.close(privPost.id);
      const mod: Viewer = { userId: moderator.id, moderator: true };
      expect(await posts.underReport(privPost.id)).toBe(false);
      expect((await posts.bookmarked(mod, page(1))).map((e) => e.post_id)).toEqual([pubPost.id]);
      expect((await posts.wall(priv.id, mod, page(1))).map((e) => e.post_id)).toEqual([]);
    });

    it('lists, counts and marks notifications read per user', async () => {
      const { users, notifications, inbox } = await make();
      const [a, b] = [await users.create(aNewUser()), await users.create(aNewUser())];
      const n1 = await notifications.create({ user_id: a.id, from_user_id: b.id, type: 'like', created_at: at(1) });
      const n2 = await notifications.create({ user_id: a.id, from_user_id: b.id, type: 'comment', created_at: at(2) });
      await notifications.create({ user_id: b.id, from_user_id: a.id, type: 'like', created_at: at(3) });
      expect((await inbox.list(reader(a), page(1), false)).map((n) => n.id)).toEqual([n2.id, n1.id]);
      expect(await inbox.countUnread(reader(a))).toBe(2);
      expect(await inbox.markRead(b.id, n1.id)).toBe(false);
      expect(await inbox.markRead(a.id, n1.id)).toBe(true);
      expect((await inbox.list(reader(a), page(1), true)).map((n) => n.id)).toEqual([n2.id]);
      expect(await inbox.countUnread(reader(a))).toBe(1);
      expect(await inbox.markAllRead(a.id)).toBe(1);
      expect(await inbox.countUnread(reader(a))).toBe(0);
      expect(await inbox.countUnread(reader(b))).toBe(1);
      expect((await inbox.list(reader(a), page(1), false))[0].is_read).toBe(true);
    });
  });
}
