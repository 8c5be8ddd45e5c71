import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiResponse } from '../support/client.js';
import { aCommunityGroup, aGroupMembership, aGroupPost, aPage, aPagePost, aPost, aUser, type TestUser } from '../support/mothers.js';
import { startTestServer, type TestServer } from '../support/server.js';

/**
 * Group and page posts in bookmarks.php and shares.php (docs/decisions/0195, 0196): `post_type` picks
 * the surface, its visibility rule decides at every read, a private group's or page's post cannot be
 * shared, and wall posts (no `post_type`) behave as before.
 */
let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

const as = (u: TestUser) => ({ token: u.token });
type Item = { id: number; type: string; group_id: number | null; page_id?: number; is_bookmarked: boolean; content: string };

async function bookmarks(u: TestUser): Promise<Item[]> {
  const res = await t.api.get('bookmarks.php?per_page=100', as(u));
  expect(res.status).toBe(200);
  expect(res.body.bookmarks).toEqual(res.body.data);
  return res.body.data;
}
const keys = (items: Item[]) => items.map((i) => `${i.type}:${i.id}`);

async function rows(table: 'bookmarks' | 'shares', type: string, postId: number) {
  return t.database.db.selectFrom(table).select(['user_id']).where('post_type', '=', type).where('post_id', '=', postId).execute();
}

describe('bookmarks.php with post_type', () => {
  it('bookmarks wall, group and page posts, lists them newest first in the Post shape, and removes them', async () => {
    const author = await aUser(t.api);
    const reader = await aUser(t.api);
    const wall = await aPost(t.api, author, { content: 'wall words' });
    const g = await aCommunityGroup(t.api, author);
    const gp = await aGroupPost(t.api, author, g, { content: 'group words' });
    const page = await aPage(t.api, author);
    const pp = await aPagePost(t.api, author, page, { content: 'page words' });

    expect((await t.api.post('bookmarks.php', { post_id: wall.id }, as(reader))).status).toBe(200);
    const first = await t.api.post('bookmarks.php', { post_id: gp.id, post_type: 'group' }, as(reader));
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ success: true, message: 'Bookmark added', post_id: gp.id, is_bookmarked: true });
    const again = await t.api.post('bookmarks.php', { post_id: gp.id, post_type: 'group' }, as(reader));
    expect(again.body).toMatchObject({ message: 'Already bookmarked', is_bookmarked: true });
    expect((await t.api.post('bookmarks.php', { post_id: pp.id, post_type: 'page' }, as(reader))).status).toBe(200);

    // Bookmarked in that order, a second apart (the list's order is the bookmarks' time).
    for (const [type, id, second] of [
      ['post', wall.id, 1],
      ['group', gp.id, 2],
      ['page', pp.id, 3],
    ] as const) {
      await t.database.db
        .updateTable('bookmarks')
        .set({ created_at: `2026-01-01 10:00:0${second}` })
        .where('user_id', '=', reader.id)
        .where('post_type', '=', type)
        .where('post_id', '=', id)
        .execute();
    }
    const list = await bookmarks(reader);
    expect(keys(list)).toEqual([`page:${pp.id}`, `group:${gp.id}`, `post:${wall.id}`]);
    expect(list[0]).toMatchObject({
      type: 'page',
      group_id: null,
      page_id: page.id,
      content: 'page words',
      is_bookmarked: true,
      user_id: author.id,
    });
    expect(list[1]).toMatchObject({
      type: 'group',
      group_id: g.id,
      content: 'group words',
      is_bookmarked: true,
      likes_count: 0,
      shares_count: 0,
    });
    expect(list[1]).not.toHaveProperty('page_id');
    // The wall post's item is the feeds' item, unchanged.
    expect(list[2]).toMatchObject({ type: 'post', group_id: null, content: 'wall words', is_bookmarked: true });
    expect(list[2]).not.toHaveProperty('page_id');

    // Same id space per kind: removing the group bookmark leaves a wall post of that id alone.
    const removed = await t.api.delete(`bookmarks.php?post_id=${gp.id}&post_type=group`, undefined, as(reader));
    expect(removed.body).toMatchObject({ success: true, message: 'Bookmark removed', is_bookmarked: false });
    expect(keys(await bookmarks(reader))).toEqual([`page:${pp.id}`, `post:${wall.id}`]);
    expect((await t.api.delete(`bookmarks.php?post_id=${gp.id}&post_type=group`, undefined, as(reader))).body.message).toBe(
      'Not bookmarked',
    );
  });

  it("lists a private group's post only while the reader is a member (decided at read time)", async () => {
    const admin = await aUser(t.api);
    const member = await aUser(t.api);
    const g = await aCommunityGroup(t.api, admin, { privacy: 'private' });
    await aGroupMembership(t.api, g, [member], admin);
    const gp = await aGroupPost(t.api, admin, g);
    expect((await t.api.post('bookmarks.php', { post_id: gp.id, post_type: 'group' }, as(member))).status).toBe(200);
    expect(keys(await bookmarks(member))).toEqual([`group:${gp.id}`]);
    expect((await t.api.post('groups.php', { action: 'leave', group_id: g.id }, as(member))).status).toBe(200);
    expect(await bookmarks(member)).toEqual([]);
    // The row stays; membership again shows it again.
    expect(await rows('bookmarks', 'group', gp.id)).toHaveLength(1);
  });

  it('answers 404 for a post one cannot see or that does not exist, and 400 for a bad post_type, storing nothing', async () => {
    const admin = await aUser(t.api);
    const stranger = await aUser(t.api);
    const g = await aCommunityGroup(t.api, admin, { privacy: 'private' });
    const gp = await aGroupPost(t.api, admin, g);
    const hiddenPage = await aPage(t.api, admin, { privacy: 'private' });
    const pp = await aPagePost(t.api, admin, hiddenPage);

    const hidden = await t.api.post('bookmarks.php', { post_id: gp.id, post_type: 'group' }, as(stranger));
    const missing = await t.api.post('bookmarks.php', { post_id: 99_999_999, post_type: 'group' }, as(stranger));
    expect([hidden.status, hidden.body.code]).toEqual([404, 'post_not_found']);
    expect([missing.status, missing.body.code]).toEqual([404, 'post_not_found']);
    expect((await t.api.post('bookmarks.php', { post_id: pp.id, post_type: 'page' }, as(stranger))).status).toBe(404);
    expect((await t.api.delete(`bookmarks.php?post_id=${gp.id}&post_type=group`, undefined, as(stranger))).status).toBe(404);
    for (const bad of ['wall', 'GROUP', 1, '']) {
      const res = await t.api.post('bookmarks.php', { post_id: gp.id, post_type: bad }, as(admin));
      expect([res.status, res.body.success]).toEqual([400, false]);
    }
    expect((await t.api.delete(`bookmarks.php?post_id=${gp.id}&post_type=event`, undefined, as(admin))).status).toBe(400);
    expect(await rows('bookmarks', 'group', gp.id)).toEqual([]);
    expect(await rows('bookmarks', 'page', pp.id)).toEqual([]);
  });
});

describe('shares.php with post_type', () => {
  it("shares a public group's and a page's post once each, counting the shares", async () => {
    const author = await aUser(t.api);
    const sharer = await aUser(t.api);
    const g = await aCommunityGroup(t.api, author);
    const gp = await aGroupPost(t.api, author, g);
    const page = await aPage(t.api, author);
    const pp = await aPagePost(t.api, author, page);

    const first = await t.api.post('shares.php', { post_id: gp.id, post_type: 'group' }, as(sharer));
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ success: true, message: 'Post shared', post_id: gp.id, shared: true, shares_count: 1 });
    const again = await t.api.post('shares.php', { post_id: gp.id, post_type: 'group' }, as(sharer));
    expect(again.body).toMatchObject({ message: 'Already shared', shared: false, shares_count: 1 });
    const onPage = await t.api.post('shares.php', { post_id: pp.id, post_type: 'page' }, as(sharer));
    expect(onPage.body).toMatchObject({ shared: true, shares_count: 1 });
    expect(await rows('shares', 'group', gp.id)).toEqual([{ user_id: sharer.id }]);

    // The count shows in the bookmark list's item too.
    await t.api.post('bookmarks.php', { post_id: gp.id, post_type: 'group' }, as(sharer));
    expect((await bookmarks(sharer))[0]).toMatchObject({ type: 'group', id: gp.id, shares_count: 1 });
  });

  it("refuses a private group's post, even to a member (403 post_not_shareable), and answers 404 to a non-member", async () => {
    const admin = await aUser(t.api);
    const member = await aUser(t.api);
    const stranger = await aUser(t.api);
    const g = await aCommunityGroup(t.api, admin, { privacy: 'private' });
    await aGroupMembership(t.api, g, [member], admin);
    const gp = await aGroupPost(t.api, admin, g);
    const res = await t.api.post('shares.php', { post_id: gp.id, post_type: 'group' }, as(member));
    expect([res.status, res.body.code, res.body.success]).toEqual([403, 'post_not_shareable', false]);
    const outsider = await t.api.post('shares.php', { post_id: gp.id, post_type: 'group' }, as(stranger));
    expect([outsider.status, outsider.body.code]).toEqual([404, 'post_not_found']);
    expect((await t.api.post('shares.php', { post_id: gp.id, post_type: 'story' }, as(member))).status).toBe(400);
    expect(await rows('shares', 'group', gp.id)).toEqual([]);
  });
});

describe('under concurrent identical requests', () => {
  const N = 20;
  async function burst(request: () => Promise<ApiResponse>): Promise<ApiResponse[]> {
    const answers = await Promise.all(Array.from({ length: N }, request));
    expect(answers.filter((a) => a.status >= 500).map((a) => `${a.status} ${JSON.stringify(a.body)}`)).toEqual([]);
    return answers;
  }

  it('20 bookmarks and 20 shares of one group post at once store exactly one row each', async () => {
    const author = await aUser(t.api);
    const fan = await aUser(t.api);
    const g = await aCommunityGroup(t.api, author);
    const gp = await aGroupPost(t.api, author, g);
    const marks = await burst(() => t.api.post('bookmarks.php', { post_id: gp.id, post_type: 'group' }, as(fan)));
    expect(marks.every((a) => a.status === 200)).toBe(true);
    expect(marks.filter((a) => a.body.message === 'Bookmark added')).toHaveLength(1);
    const shares = await burst(() => t.api.post('shares.php', { post_id: gp.id, post_type: 'group' }, as(fan)));
    expect(shares.every((a) => a.status === 200)).toBe(true);
    expect(shares.filter((a) => a.body.shared === true)).toHaveLength(1);
    expect(await rows('bookmarks', 'group', gp.id)).toHaveLength(1);
    expect(await rows('shares', 'group', gp.id)).toHaveLength(1);
  });
});

describe('search.php finds group and page posts', () => {
  it("under their surface's rule, under group_posts and page_posts, never in items", async () => {
    const word = `zq${Date.now().toString(36)}`;
    const admin = await aUser(t.api);
    const member = await aUser(t.api);
    const stranger = await aUser(t.api);
    const open = await aCommunityGroup(t.api, admin);
    const closed = await aCommunityGroup(t.api, admin, { privacy: 'private' });
    await aGroupMembership(t.api, closed, [member], admin);
    const openPost = await aGroupPost(t.api, admin, open, { content: `${word} in the open` });
    const closedPost = await aGroupPost(t.api, admin, closed, { content: `${word} among members` });
    const page = await aPage(t.api, admin);
    const pagePost = await aPagePost(t.api, admin, page, { content: `${word} on the page` });
    const hiddenPage = await aPage(t.api, admin, { privacy: 'private' });
    await aPagePost(t.api, admin, hiddenPage, { content: `${word} not yet published` });

    const asStranger = await t.api.get(`search.php?q=${word}&type=posts`, as(stranger));
    expect(asStranger.status).toBe(200);
    expect(asStranger.body.group_posts.map((p: Item) => p.id)).toEqual([openPost.id]);
    expect(asStranger.body.group_posts[0]).toMatchObject({
      type: 'group',
      group_id: open.id,
      user_avatar: expect.any(String),
      is_bookmarked: false,
    });
    expect(asStranger.body.page_posts.map((p: Item) => [p.id, p.type, p.page_id])).toEqual([[pagePost.id, 'page', page.id]]);
    expect(asStranger.body.items).toEqual([]);
    expect(asStranger.body.posts).toEqual([]);

    await t.api.post('bookmarks.php', { post_id: closedPost.id, post_type: 'group' }, as(member));
    const asMember = await t.api.get(`search.php?q=${word}`, as(member));
    expect(asMember.body.group_posts.map((p: Item) => p.id).sort()).toEqual([openPost.id, closedPost.id].sort());
    expect(asMember.body.group_posts.find((p: Item) => p.id === closedPost.id).is_bookmarked).toBe(true);
    // type=users searches no posts of any kind.
    const users = await t.api.get(`search.php?q=${word}&type=users`, as(member));
    expect([users.body.group_posts, users.body.page_posts]).toEqual([[], []]);
  });
});
