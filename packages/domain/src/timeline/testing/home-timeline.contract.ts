import { describe, expect, it } from 'vitest';
import type { UserRepository } from '../../accounts/ports.js';
import { aNewUser } from '../../accounts/testing/mothers.js';
import type { FollowRepository } from '../../social/ports.js';
import { type HomeTimelineRepository, type TimelinePage, wallEntryOfPost, wallEntryOfShare } from '../home-timeline.js';
import type { PostRecord, PostView } from '../../content/model.js';
import { isShareLine, type SurfaceShareLine } from '../../content/wall-items.js';
import type { PostEngagementRepository, PostRepository } from '../../content/ports.js';
import type { Viewer } from '../../content/visibility.js';

export interface HomeTimelinePorts {
  users: UserRepository;
  follows: FollowRepository;
  posts: PostRepository;
  engagement: PostEngagementRepository;
  timelines: HomeTimelineRepository;
  /** Makes an account private, as the preferences do. */
  setPrivate(userId: number): Promise<void>;
}

const at = (minute: number) => `2026-03-01 10:${String(minute).padStart(2, '0')}:00`;
const viewer = (u: { id: number }): Viewer => ({ userId: u.id, moderator: false });
const page = (p: number, perPage = 20) => ({ page: p, perPage });
/** The page's wall posts: these walls hold no share of a group's or page's post (those are tested over HTTP). */
const wallPosts = (entries: (PostView | SurfaceShareLine)[]): PostView[] =>
  entries.map((e) => {
    if (isShareLine(e)) throw new Error(`unexpected share of a ${e.post_type} post`);
    return e;
  });
const ids = (r: TimelinePage) =>
  r.kind === 'entries' ? wallPosts(r.entries).map((e) => `${e.post.id}${e.shared_by_username ? `@${e.shared_by_username}` : ''}`) : r.kind;

/** The behaviour every home timeline must share, fake or SQL (docs/decisions/0071). */
export function homeTimelineContract(name: string, make: () => Promise<HomeTimelinePorts>) {
  describe(`${name}: home timeline contract`, () => {
    async function world() {
      const ports = await make();
      const [me, followed, stranger] = [
        await ports.users.create(aNewUser()),
        await ports.users.create(aNewUser()),
        await ports.users.create(aNewUser()),
      ];
      await ports.follows.follow(me.id, followed.id, at(0));
      const post = (u: { id: number }, minute: number) =>
        ports.posts.create({ user_id: u.id, content: `at ${minute}`, media: [], media_type: null, tags: [], created_at: at(minute) });
      const publish = async (u: { id: number }, minute: number) => {
        const p = await post(u, minute);
        await ports.timelines.fanOut(wallEntryOfPost(p), 100);
        return p;
      };
      /** A share by `sharer`, fanned out as the share's listener does. */
      const shareOut = async (p: PostRecord, sharer: { id: number }, minute: number) => {
        const entryId = await ports.engagement.share(p.id, sharer.id, at(minute));
        if (entryId === null) throw new Error('already shared');
        await ports.timelines.fanOut(wallEntryOfShare({ post: p, userId: sharer.id, entryId, at: at(minute) }), 100);
      };
      return { ...ports, me, followed, stranger, post, publish, shareOut };
    }

    it('is unbuilt until built; built, it holds one’s own and followed walls, newest first', async () => {
      const w = await world();
      const [a, b, c] = [await w.post(w.followed, 1), await w.post(w.me, 2), await w.post(w.stranger, 3)];
      expect(ids(await w.timelines.page(viewer(w.me), page(1)))).toBe('unbuilt');
      await w.timelines.build(w.me.id, 100);
      expect(ids(await w.timelines.page(viewer(w.me), page(1)))).toEqual([`${b.id}`, `${a.id}`]);
      void c;
      // Building again changes nothing.
      await w.timelines.build(w.me.id, 100);
      expect(ids(await w.timelines.page(viewer(w.me), page(1)))).toEqual([`${b.id}`, `${a.id}`]);
    });

    it('fans a new post out to the built timelines of its author and followers only', async () => {
      const w = await world();
      await w.timelines.build(w.me.id, 100);
      await w.timelines.build(w.followed.id, 100);
      const p = await w.publish(w.followed, 5);
      const s = await w.publish(w.stranger, 6);
      expect(ids(await w.timelines.page(viewer(w.me), page(1)))).toEqual([`${p.id}`]);
      expect(ids(await w.timelines.page(viewer(w.followed), page(1)))).toEqual([`${p.id}`]);
      // The stranger's timeline is not built: nothing was written for it.
      expect(ids(await w.timelines.page(viewer(w.stranger), page(1)))).toBe('unbuilt');
      await w.timelines.build(w.stranger.id, 100);
      expect(ids(await w.timelines.page(viewer(w.stranger), page(1)))).toEqual([`${s.id}`]);
    });

    it('writes at most `inRequestMax + 1` timelines in the request, and queues the entry for the job to write the rest', async () => {
      const w = await world();
      const others = [await w.users.create(aNewUser()), await w.users.create(aNewUser())];
      for (const o of others) await w.follows.follow(o.id, w.followed.id, at(0));
      const readers = [w.followed, w.me, ...others];
      for (const u of readers) await w.timelines.build(u.id, 100);
      const holding = async (postId: number) =>
        (await Promise.all(readers.map(async (u) => ids(await w.timelines.page(viewer(u), page(1)))))).filter((r) =>
          r.includes(`${postId}`),
        ).length;
      const crowded = await w.post(w.followed, 7);
      expect(await w.timelines.fanOut(wallEntryOfPost(crowded), 1)).toBe('queued');
      expect(await holding(crowded.id)).toBe(2);
      expect(await w.timelines.fanOutQueued(10)).toBe(1);
      expect(await holding(crowded.id)).toBe(4);
      expect(await w.timelines.fanOutQueued(10)).toBe(0);
      // With room for every timeline, the request writes them all and queues nothing.
      const roomy = await w.post(w.followed, 8);
      expect(await w.timelines.fanOut(wallEntryOfPost(roomy), 4)).toBe('done');
      expect(await holding(roomy.id)).toBe(4);
      expect(await w.timelines.fanOutQueued(10)).toBe(0);
    });

    it('claims a queued entry once (its lease holds it), and writes it once however often it is delivered', async () => {
      const w = await world();
      const other = await w.users.create(aNewUser());
      await w.follows.follow(other.id, w.followed.id, at(0));
      const readers = [w.followed, w.me, other];
      for (const u of readers) await w.timelines.build(u.id, 100);
      const crowded = await w.post(w.followed, 7);
      expect(await w.timelines.fanOut(wallEntryOfPost(crowded), 0)).toBe('queued');
      // Twenty claims at once (relays of several instances): one takes it.
      const claims = await Promise.all(Array.from({ length: 20 }, () => w.timelines.claimQueued(10)));
      expect(claims.flat()).toEqual([crowded.wall_entry_id]);
      // Held: neither another claim nor the periodic job takes it while its lease runs.
      expect(await w.timelines.claimQueued(10)).toEqual([]);
      expect(await w.timelines.fanOutQueued(10)).toBe(0);
      // Twenty deliveries at once (a job run again, a lease run out): one writes and dequeues it.
      const writes = await Promise.all(Array.from({ length: 20 }, () => w.timelines.fanOutEntry(crowded.wall_entry_id)));
      expect(writes.filter(Boolean)).toHaveLength(1);
      expect(await w.timelines.fanOutEntry(crowded.wall_entry_id)).toBe(false);
      for (const u of readers) expect(ids(await w.timelines.page(viewer(u), page(1)))).toEqual([`${crowded.id}`]);
      expect(await w.timelines.claimQueued(10)).toEqual([]);
      // Never queued: nothing to write.
      expect(await w.timelines.fanOutEntry(crowded.wall_entry_id + 1000)).toBe(false);
    });

    it("reads each entry as the viewer sees it: the post, its author, the viewer's own reaction and bookmark, the sharer", async () => {
      const w = await world();
      await w.timelines.build(w.me.id, 100);
      const liked = await w.publish(w.followed, 1);
      const plain = await w.publish(w.followed, 2);
      await w.engagement.react(liked.id, w.me.id, 'love', at(3));
      await w.engagement.bookmark(liked.id, w.me.id, at(3));
      await w.engagement.react(plain.id, w.stranger.id, 'like', at(3)); // someone else's: not the viewer's
      await w.shareOut(plain, w.followed, 4);
      const result = await w.timelines.page(viewer(w.me), page(1));
      if (result.kind !== 'entries') throw new Error(`expected entries, got ${result.kind}`);
      const entries = wallPosts(result.entries);
      expect(
        entries.map((v) => ({
          id: v.post.id,
          author: v.author.username,
          is_liked: v.is_liked,
          reaction: v.reaction_type,
          bookmarked: v.is_bookmarked,
          by: v.shared_by_username,
        })),
      ).toEqual([
        { id: plain.id, author: w.followed.username, is_liked: false, reaction: null, bookmarked: false, by: w.followed.username },
        { id: plain.id, author: w.followed.username, is_liked: false, reaction: null, bookmarked: false, by: null },
        { id: liked.id, author: w.followed.username, is_liked: true, reaction: 'love', bookmarked: true, by: null },
      ]);
      expect(entries[2].post).toMatchObject({ id: liked.id, user_id: w.followed.id, content: 'at 1', likes_count: 1 });
      expect(entries[0].feed_date).toBe(at(4));
    });

    it('backfills a followed wall and removes it on unfollow; shares carry their sharer', async () => {
      const w = await world();
      await w.timelines.build(w.me.id, 100);
      const [s1, s2] = [await w.post(w.stranger, 1), await w.post(w.stranger, 2)];
      await w.shareOut(s1, w.followed, 3);
      expect(ids(await w.timelines.page(viewer(w.me), page(1)))).toEqual([`${s1.id}@${w.followed.username}`]);
      await w.follows.follow(w.me.id, w.stranger.id, at(4));
      await w.timelines.backfill(w.me.id, w.stranger.id, 100);
      expect(ids(await w.timelines.page(viewer(w.me), page(1)))).toEqual([`${s1.id}@${w.followed.username}`, `${s2.id}`, `${s1.id}`]);
      await w.follows.unfollow(w.me.id, w.stranger.id);
      await w.timelines.removeOwner(w.me.id, w.stranger.id);
      expect(ids(await w.timelines.page(viewer(w.me), page(1)))).toEqual([`${s1.id}@${w.followed.username}`]);
    });

    it('applies the visibility rule at read time, and loses removed posts', async () => {
      const w = await world();
      await w.timelines.build(w.me.id, 100);
      const secret = await w.post(w.stranger, 1);
      await w.setPrivate(w.stranger.id);
      await w.shareOut(secret, w.followed, 2);
      const open = await w.publish(w.followed, 3);
      expect(ids(await w.timelines.page(viewer(w.me), page(1)))).toEqual([`${open.id}`]);
      // Following the private author lets the share through, with no rewrite of the timeline.
      await w.follows.follow(w.me.id, w.stranger.id, at(4));
      expect(ids(await w.timelines.page(viewer(w.me), page(1)))).toEqual([`${open.id}`, `${secret.id}@${w.followed.username}`]);
      await w.posts.delete(open.id);
      expect(ids(await w.timelines.page(viewer(w.me), page(1)))).toEqual([`${secret.id}@${w.followed.username}`]);
    });

    it('cuts a timeline to its length and answers `beyond` for the pages below it', async () => {
      const w = await world();
      await w.timelines.build(w.me.id, 3);
      const made = [];
      for (let i = 1; i <= 5; i++) made.push(await w.publish(w.followed, i));
      const newest = made.map((p) => `${p.id}`).reverse();
      expect(ids(await w.timelines.page(viewer(w.me), page(1, 5)))).toEqual(newest);
      expect(await w.timelines.trim(3, 100)).toBeGreaterThanOrEqual(1);
      expect(ids(await w.timelines.page(viewer(w.me), page(1, 2)))).toEqual(newest.slice(0, 3));
      expect(ids(await w.timelines.page(viewer(w.me), page(2, 2)))).toBe('beyond');
      expect(ids(await w.timelines.page(viewer(w.me), page(1, 5)))).toBe('beyond');
    });

    it('a backfill larger than the length raises the horizon', async () => {
      const w = await world();
      await w.timelines.build(w.me.id, 3);
      const made = [];
      for (let i = 1; i <= 5; i++) made.push(await w.post(w.stranger, i));
      await w.follows.follow(w.me.id, w.stranger.id, at(9));
      await w.timelines.backfill(w.me.id, w.stranger.id, 3);
      const newest = made.map((p) => `${p.id}`).reverse();
      expect(ids(await w.timelines.page(viewer(w.me), page(1, 2)))).toEqual(newest.slice(0, 3));
      expect(ids(await w.timelines.page(viewer(w.me), page(2, 2)))).toBe('beyond');
    });
  });
}
