import { describe, expect, it } from 'vitest';
import type { UserRepository } from '../../accounts/ports.js';
import { aNewUser } from '../../accounts/testing/mothers.js';
import type { PostEngagementRepository, PostRepository } from '../ports.js';
import type { SurfaceEngagementRepository, SurfacePostType } from '../surface-engagement-ports.js';

export interface SurfaceEngagementPorts {
  users: UserRepository;
  posts: PostRepository;
  engagement: PostEngagementRepository;
  surfaces: SurfaceEngagementRepository;
  /**
   * Publishes a group or page post by `authorId`: in a public group or page, or in a private one whose
   * members (group) or team (page) are `insiders`, the only readers its surface's rule then allows.
   */
  publish(type: SurfacePostType, authorId: number, options: { content: string; isPrivate?: boolean; insiders?: number[] }): Promise<number>;
}

const page = (p: number, perPage = 20) => ({ page: p, perPage });
const at = (second: number) => `2026-02-01 10:00:${String(second).padStart(2, '0')}`;
const reader = (u: { id: number }) => ({ userId: u.id, moderator: false });

/** The behaviour the fake and the SQL adapter of SurfaceEngagementRepository share. */
export function surfaceEngagementContract(name: string, make: () => Promise<SurfaceEngagementPorts>) {
  describe(`${name}: surface engagement contract`, () => {
    it('bookmarks and shares once per user and post, each kind in its own id space', async () => {
      const { users, surfaces, publish } = await make();
      const u = await users.create(aNewUser());
      const g = await publish('group', u.id, { content: 'group' });
      expect(await surfaces.bookmark('group', g, u.id, at(1))).toBe(true);
      expect(await surfaces.bookmark('group', g, u.id, at(2))).toBe(false);
      expect(await surfaces.bookmarkedAmong('group', [g, 99_999_999], u.id)).toEqual(new Set([g]));
      expect(await surfaces.bookmarkedAmong('page', [g], u.id)).toEqual(new Set());
      // The same number as a page post's id is another post.
      expect(await surfaces.unbookmark('page', g, u.id)).toBe(false);
      expect(await surfaces.unbookmark('group', g, u.id)).toBe(true);
      expect(await surfaces.unbookmark('group', g, u.id)).toBe(false);

      expect(await surfaces.sharesCount('group', g)).toBe(0);
      expect(await surfaces.share('group', g, u.id, at(3))).toBe(true);
      expect(await surfaces.share('group', g, u.id, at(4))).toBe(false);
      expect(await surfaces.sharesCount('group', g)).toBe(1);
      expect(await surfaces.sharesCount('page', g)).toBe(0);
    });

    it("lists every surface's bookmarks the reader may see, newest first, by page", async () => {
      const { users, posts, engagement, surfaces, publish } = await make();
      const author = await users.create(aNewUser());
      const r = await users.create(aNewUser());
      const insider = await users.create(aNewUser());
      const wall = await posts.create({ user_id: author.id, content: 'wall', media: [], media_type: null, tags: [], created_at: at(0) });
      const g = await publish('group', author.id, { content: 'group' });
      const hiddenG = await publish('group', author.id, { content: 'private group', isPrivate: true, insiders: [insider.id] });
      const p = await publish('page', author.id, { content: 'page' });
      const hiddenP = await publish('page', author.id, { content: 'private page', isPrivate: true, insiders: [insider.id] });
      for (const who of [r, insider]) {
        await engagement.bookmark(wall.id, who.id, at(1));
        await surfaces.bookmark('group', g, who.id, at(2));
        await surfaces.bookmark('group', hiddenG, who.id, at(3));
        await surfaces.bookmark('page', p, who.id, at(4));
        await surfaces.bookmark('page', hiddenP, who.id, at(5));
      }
      const entries = await surfaces.bookmarked(reader(r), page(1));
      expect(entries.map((e) => [e.post_type, e.post_id, e.created_at])).toEqual([
        ['page', p, at(4)],
        ['group', g, at(2)],
        ['post', wall.id, at(1)],
      ]);
      expect((await surfaces.bookmarked(reader(insider), page(1))).map((e) => `${e.post_type}:${e.post_id}`)).toEqual([
        `page:${hiddenP}`,
        `page:${p}`,
        `group:${hiddenG}`,
        `group:${g}`,
        `post:${wall.id}`,
      ]);
      // perPage + 1 at most, so the caller knows another page exists.
      expect(await surfaces.bookmarked(reader(insider), page(1, 2))).toHaveLength(3);
      expect((await surfaces.bookmarked(reader(insider), page(3, 2))).map((e) => e.post_id)).toEqual([wall.id]);
    });

    it('reads group and page posts with their shares, leaving unknown ids out', async () => {
      const { users, surfaces, publish } = await make();
      const author = await users.create(aNewUser());
      const g = await publish('group', author.id, { content: 'in the group' });
      const p = await publish('page', author.id, { content: 'on the page' });
      await surfaces.share('group', g, author.id, at(1));
      const groupPosts = await surfaces.surfacePosts('group', [g, 99_999_999], author.id);
      expect(groupPosts).toEqual([
        expect.objectContaining({
          post_type: 'group',
          id: g,
          user_id: author.id,
          page_id: null,
          content: 'in the group',
          shares_count: 1,
          reaction_type: null,
          likes_count: 0,
          comments_count: 0,
        }),
      ]);
      expect(groupPosts[0].group_id).toEqual(expect.any(Number));
      const pagePosts = await surfaces.surfacePosts('page', [p], author.id);
      expect(pagePosts).toEqual([
        expect.objectContaining({ post_type: 'page', id: p, group_id: null, content: 'on the page', shares_count: 0 }),
      ]);
      expect(pagePosts[0].page_id).toEqual(expect.any(Number));
      expect(await surfaces.surfacePosts('page', [], author.id)).toEqual([]);
    });
  });
}
