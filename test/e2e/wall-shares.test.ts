import { PostRepository } from '@plaza/domain/content';
import { resolve } from '@plaza/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiResponse } from '../support/client.js';
import {
  aCommunityGroup,
  aFollow,
  aGroupMembership,
  aGroupPost,
  aPage,
  aPagePost,
  aPost,
  aUser,
  type TestUser,
} from '../support/mothers.js';
import { startTestServer, type TestServer } from '../support/server.js';

/**
 * Shares of group and page posts on walls and feeds (docs/decisions/0230): a share of a public
 * group's or page's post is an entry on the sharer's wall, fanned out to their followers' home
 * timelines as a wall post's share, shown in the Post shape of its surface (`type`, `group_id`,
 * `page_id`) with `shared_by_username`, to whoever may see both the wall and the post, decided at read
 * time; its author is told as their surface tells of a reaction.
 */
let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

const as = (u: TestUser) => ({ token: u.token });
const ok = (res: ApiResponse) => expect(res.status, JSON.stringify(res.body)).toBe(200);

type Item = {
  id: number;
  type: string;
  group_id: number | null;
  page_id?: number;
  content: string;
  shared_by_username: string | null;
  feed_date: string;
  user_id: number;
};

const key = (i: Item) => `${i.type}:${i.id}${i.shared_by_username ? `@${i.shared_by_username}` : ''}`;

async function list(url: string, u: TestUser): Promise<Item[]> {
  const res = await t.api.get(url, as(u));
  ok(res);
  expect(res.body.posts).toEqual(res.body.data.posts);
  return res.body.posts;
}
const wall = (owner: { id: number }, reader: TestUser) => list(`posts.php?user_id=${owner.id}&per_page=50`, reader);
const feed = (reader: TestUser) => list('posts.php?per_page=50', reader);

/** The following feed as the read-time query computes it (the fallback below the stored timeline). */
async function readTimeFeed(reader: TestUser) {
  const repo = resolve(t.plaza.container, PostRepository);
  return repo.feed({ userId: reader.id, moderator: false }, { page: 1, perPage: 50 });
}

async function share(u: TestUser, postId: number, postType?: 'group' | 'page') {
  return t.api.post('shares.php', { post_id: postId, ...(postType ? { post_type: postType } : {}) }, as(u));
}

async function wallEntries(type: string, postId: number) {
  return t.database.db
    .selectFrom('wall_entries')
    .select(['user_id', 'is_share'])
    .where('post_type', '=', type)
    .where('post_id', '=', postId)
    .execute();
}

describe("a share of a group's or page's post", () => {
  it("shows on the sharer's wall and in their followers' feeds, in its surface's Post shape", async () => {
    const [admin, sharer, early, late] = [await aUser(t.api), await aUser(t.api), await aUser(t.api), await aUser(t.api)];
    const g = await aCommunityGroup(t.api, admin);
    const gp = await aGroupPost(t.api, admin, g, { content: 'group words' });
    const page = await aPage(t.api, admin);
    const pp = await aPagePost(t.api, admin, page, { content: 'page words' });
    const own = await aPost(t.api, sharer, { content: 'own words' });
    await aFollow(t.api, early, sharer);
    await aFollow(t.api, late, sharer);
    // `early` has a stored timeline before the shares (they reach it by fan-out); `late` builds it after.
    expect((await feed(early)).map(key)).toEqual([`post:${own.id}`]);

    ok(await share(sharer, gp.id, 'group'));
    ok(await share(sharer, pp.id, 'page'));
    const expected = [`page:${pp.id}@${sharer.username}`, `group:${gp.id}@${sharer.username}`, `post:${own.id}`];

    const onWall = await wall(sharer, early);
    expect(onWall.map(key)).toEqual(expected);
    expect(onWall[1]).toMatchObject({ type: 'group', group_id: g.id, user_id: admin.id, content: 'group words' });
    expect(onWall[1]).not.toHaveProperty('page_id');
    expect(onWall[0]).toMatchObject({ type: 'page', group_id: null, page_id: page.id, content: 'page words' });
    // The share's date is the item's feed date, as for a wall post's share.
    const entry = await t.database.db
      .selectFrom('wall_entries')
      .select('created_at')
      .where('post_type', '=', 'group')
      .where('post_id', '=', gp.id)
      .executeTakeFirstOrThrow();
    expect(onWall[1].feed_date.replace('T', ' ').replace('Z', '')).toBe(entry.created_at);

    expect((await feed(early)).map(key)).toEqual(expected);
    expect((await feed(late)).map(key)).toEqual(expected);
    expect(await feed(early)).toEqual(onWall);
    // The read-time feed (below the stored timeline) finds the same entries.
    expect((await readTimeFeed(early)).map((e) => `${e.post_type ?? 'post'}:${e.post_id}`)).toEqual([
      `page:${pp.id}`,
      `group:${gp.id}`,
      `post:${own.id}`,
    ]);
    // A wall post's share still shows as it did.
    ok(await share(sharer, (await aPost(t.api, admin, { content: 'wall post' })).id));
    expect((await feed(early))[0]).toMatchObject({ type: 'post', group_id: null, shared_by_username: sharer.username });
  });

  it("tells a group post's author with the group's link, and a page post's author nothing", async () => {
    const [admin, sharer] = [await aUser(t.api), await aUser(t.api)];
    const g = await aCommunityGroup(t.api, admin);
    const gp = await aGroupPost(t.api, admin, g);
    const page = await aPage(t.api, admin);
    const pp = await aPagePost(t.api, admin, page);
    ok(await share(sharer, gp.id, 'group'));
    ok(await share(sharer, pp.id, 'page'));
    ok(await share(sharer, gp.id, 'group')); // again: no second notice
    const res = await t.api.get('notifications.php', as(admin));
    ok(res);
    const shares = res.body.notifications.filter((n: { type: string }) => n.type === 'share');
    expect(shares).toHaveLength(1);
    expect(shares[0]).toMatchObject({ from_user_id: sharer.id, group_id: g.id, link: `group_detail.php?id=${g.id}#post-${gp.id}` });
    expect(shares[0].post_id ?? null).toBeNull();
    expect(shares[0].content).toContain('shared your post in');
  });

  it('is not shown to non-members once the group turns private, nor to anyone once the post is deleted', async () => {
    const [admin, sharer, member, outsider] = [await aUser(t.api), await aUser(t.api), await aUser(t.api), await aUser(t.api)];
    const g = await aCommunityGroup(t.api, admin);
    await aGroupMembership(t.api, g, [member]);
    const gp = await aGroupPost(t.api, admin, g);
    await aFollow(t.api, member, sharer);
    await aFollow(t.api, outsider, sharer);
    await feed(member);
    await feed(outsider);
    ok(await share(sharer, gp.id, 'group'));
    const shared = `group:${gp.id}@${sharer.username}`;
    expect((await feed(outsider)).map(key)).toEqual([shared]);

    ok(await t.api.put('groups.php', { id: g.id, privacy: 'private' }, as(admin)));
    expect(await feed(outsider)).toEqual([]);
    expect(await wall(sharer, outsider)).toEqual([]);
    expect(await readTimeFeed(outsider)).toEqual([]);
    // A member may see both the wall and the post: it still shows to them.
    expect((await feed(member)).map(key)).toEqual([shared]);
    expect((await wall(sharer, member)).map(key)).toEqual([shared]);
    // And a private group's post cannot be shared again by anyone (docs/decisions/0196).
    const refused = await share(member, gp.id, 'group');
    expect([refused.status, refused.body.code]).toEqual([403, 'post_not_shareable']);
    expect(await wallEntries('group', gp.id)).toEqual([{ user_id: sharer.id, is_share: 1 }]);

    ok(await t.api.put('groups.php', { id: g.id, privacy: 'public' }, as(admin)));
    expect((await feed(outsider)).map(key)).toEqual([shared]);
    ok(await t.api.delete(`group_posts.php?id=${gp.id}`, undefined, as(admin)));
    for (const reader of [member, outsider, sharer]) {
      expect(await feed(reader)).toEqual([]);
      expect(await wall(sharer, reader)).toEqual([]);
    }
  });

  it("follows the sharer's wall rule: a private sharer's share shows to their followers only", async () => {
    const [admin, sharer, follower, stranger] = [await aUser(t.api), await aUser(t.api), await aUser(t.api), await aUser(t.api)];
    const g = await aCommunityGroup(t.api, admin);
    const gp = await aGroupPost(t.api, admin, g);
    await aFollow(t.api, follower, sharer);
    await t.database.db.updateTable('users').set({ is_private: 1 }).where('id', '=', sharer.id).execute();
    ok(await share(sharer, gp.id, 'group'));
    expect((await wall(sharer, follower)).map(key)).toEqual([`group:${gp.id}@${sharer.username}`]);
    expect(await wall(sharer, stranger)).toEqual([]);
    expect(await feed(stranger)).toEqual([]);
  });

  it('puts nothing on any wall when refused: a post one may not see (404) or may not share (403)', async () => {
    const [admin, member, stranger] = [await aUser(t.api), await aUser(t.api), await aUser(t.api)];
    const g = await aCommunityGroup(t.api, admin, { privacy: 'private' });
    await aGroupMembership(t.api, g, [member], admin);
    const gp = await aGroupPost(t.api, admin, g);
    const hiddenPage = await aPage(t.api, admin, { privacy: 'private' });
    const pp = await aPagePost(t.api, admin, hiddenPage);
    const outsider = await share(stranger, gp.id, 'group');
    expect([outsider.status, outsider.body.code]).toEqual([404, 'post_not_found']);
    const inside = await share(member, gp.id, 'group');
    expect([inside.status, inside.body.code]).toEqual([403, 'post_not_shareable']);
    const team = await share(admin, pp.id, 'page');
    expect([team.status, team.body.code]).toEqual([403, 'post_not_shareable']);
    expect(await wallEntries('group', gp.id)).toEqual([]);
    expect(await wallEntries('page', pp.id)).toEqual([]);
    expect(await wall(member, member)).toEqual([]);
  });

  it('twenty identical shares at once make one share, one wall entry and one timeline row per reader', async () => {
    const [admin, sharer, follower] = [await aUser(t.api), await aUser(t.api), await aUser(t.api)];
    const g = await aCommunityGroup(t.api, admin);
    const gp = await aGroupPost(t.api, admin, g);
    await aFollow(t.api, follower, sharer);
    await feed(follower);
    await feed(sharer);
    const answers = await Promise.all(Array.from({ length: 20 }, () => share(sharer, gp.id, 'group')));
    expect(answers.filter((a) => a.status !== 200).map((a) => `${a.status} ${JSON.stringify(a.body)}`)).toEqual([]);
    expect(answers.filter((a) => a.body.shared === true)).toHaveLength(1);
    expect(answers.every((a) => a.body.shares_count === 1)).toBe(true);
    expect(await wallEntries('group', gp.id)).toEqual([{ user_id: sharer.id, is_share: 1 }]);
    const rows = await t.database.db
      .selectFrom('home_timeline')
      .select('user_id')
      .where('post_type', '=', 'group')
      .where('post_id', '=', gp.id)
      .orderBy('user_id')
      .execute();
    expect(rows.map((r) => r.user_id)).toEqual([sharer.id, follower.id].sort((a, b) => a - b));
    expect((await feed(follower)).map(key)).toEqual([`group:${gp.id}@${sharer.username}`]);
  });

  it("a wall post's deletion takes its entries and its shares' entries (no foreign key does it any more)", async () => {
    const [author, sharer, follower] = [await aUser(t.api), await aUser(t.api), await aUser(t.api)];
    const post = await aPost(t.api, author);
    await aFollow(t.api, follower, sharer);
    await feed(follower);
    ok(await share(sharer, post.id));
    expect(await wallEntries('post', post.id)).toHaveLength(2);
    ok(await t.api.delete(`posts.php?id=${post.id}`, undefined, as(author)));
    expect(await wallEntries('post', post.id)).toEqual([]);
    expect(
      await t.database.db
        .selectFrom('home_timeline')
        .select('user_id')
        .where('post_id', '=', post.id)
        .where('post_type', '=', 'post')
        .execute(),
    ).toEqual([]);
    expect(await feed(follower)).toEqual([]);
  });
});
