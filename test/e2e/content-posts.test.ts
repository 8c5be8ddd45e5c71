import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aFollow, aPost, aUser } from '../support/mothers.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { placeUploaded } from '../support/uploads.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

describe('posts.php', () => {
  it('creates a post and answers it with the contract item shape and JSON types', async () => {
    const u = await aUser(t.api);
    // Stored as upload.php would have, as u's upload (references must name the caller's uploads).
    await placeUploaded(t, 'media_abc.jpg', u);
    const id = (
      await aPost(t.api, u, { content: 'Hello #Plaza and #solidarity_2 #x', media: ['media_abc.jpg'], media_type: 'image', tags: ['News'] })
    ).id;
    const res = await t.api.get(`posts.php?id=${id}`, { token: u.token });
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    const p = res.body.data;
    expect(p).toMatchObject({
      id,
      user_id: u.id,
      username: u.username,
      content: 'Hello #Plaza and #solidarity_2 #x',
      media: ['uploads/posts/media_abc.jpg'],
      media_type: 'image',
      likes_count: 0,
      comments_count: 0,
      shares_count: 0,
      is_liked: false,
      reaction_type: null,
      is_bookmarked: false,
      type: 'post',
      group_id: null,
      shared_by_username: null,
      is_militant_technician: false,
    });
    expect(p.tags).toEqual(['news', 'plaza', 'solidarity_2']);
    expect(typeof p.avatar).toBe('string');
    expect(p.created_at).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    expect(p.feed_date).toBe(p.created_at);
    expect('militant_badge' in p).toBe(true);
  });

  it('answers a new post with its author as the account is at that moment', async () => {
    const u = await aUser(t.api);
    expect((await t.api.put('users.php', { militant_badge: 'Solidarity' }, { token: u.token })).status).toBe(200);
    const created = await t.api.post('posts.php', { content: 'after the badge' }, { token: u.token });
    expect(created.status).toBe(200);
    expect(created.body.data).toMatchObject({
      user_id: u.id,
      username: u.username,
      militant_badge: 'Solidarity',
      is_militant_technician: false,
    });
    expect(created.body.data).toEqual((await t.api.get(`posts.php?id=${created.body.post_id}`, { token: u.token })).body.data);
  });

  it('rejects a post with neither content nor media, and bad input types', async () => {
    const u = await aUser(t.api);
    const empty = await t.api.post('posts.php', { content: '   ' }, { token: u.token });
    expect(empty.status).toBe(400);
    expect(empty.body.success).toBe(false);
    expect((await t.api.post('posts.php', {}, { token: u.token })).status).toBe(400);
    expect((await t.api.post('posts.php', { content: 5 }, { token: u.token })).status).toBe(400);
    expect((await t.api.post('posts.php', { media: ['../../etc/passwd x'] }, { token: u.token })).status).toBe(400);
    await placeUploaded(t, 'media_only.mp4', u);
    const mediaOnly = await t.api.post('posts.php', { media: ['media_only.mp4'] }, { token: u.token });
    expect(mediaOnly.status).toBe(200);
    expect(mediaOnly.body.data.media_type).toBe('video');
  });

  it('answers 404 for an unknown post and 401 without a token', async () => {
    const u = await aUser(t.api);
    expect((await t.api.get('posts.php?id=99999999', { token: u.token })).status).toBe(404);
    expect((await t.api.get('posts.php')).status).toBe(401);
  });

  it('paginates a wall: 20, then 5, then an empty page, newest first', async () => {
    const u = await aUser(t.api);
    for (let i = 0; i < 25; i++) await aPost(t.api, u, { content: `post ${i}` });
    const p1 = await t.api.get(`posts.php?user_id=${u.id}&page=1`, { token: u.token });
    const p2 = await t.api.get(`posts.php?user_id=${u.id}&page=2`, { token: u.token });
    const p3 = await t.api.get(`posts.php?user_id=${u.id}&page=3`, { token: u.token });
    expect(p1.body.data.posts).toHaveLength(20);
    expect(p1.body.posts).toHaveLength(20);
    expect(p1.body.data.pagination).toMatchObject({ current_page: 1, per_page: 20, has_more: true });
    expect(p2.body.data.posts).toHaveLength(5);
    expect(p2.body.data.pagination.has_more).toBe(false);
    expect(p3.body.data.posts).toHaveLength(0);
    expect(p1.body.data.posts[0].content).toBe('post 24');
    expect(p2.body.data.posts[4].content).toBe('post 0');
    const ids = [...p1.body.data.posts, ...p2.body.data.posts].map((p: { id: number }) => p.id);
    expect(new Set(ids).size).toBe(25);
    expect((await t.api.get(`posts.php?user_id=${u.id}&per_page=7`, { token: u.token })).body.posts).toHaveLength(7);
    expect((await t.api.get(`posts.php?user_id=${u.id}&per_page=101`, { token: u.token })).status).toBe(400);
    const profile = await t.api.get(`users.php?id=${u.id}`, { token: u.token });
    expect(profile.body.posts_count).toBe(25);
  });

  it('builds the feed from followed accounts, own posts and shares; global shows everyone public', async () => {
    const [me, friend, stranger] = [await aUser(t.api), await aUser(t.api), await aUser(t.api)];
    await aFollow(t.api, me, friend);
    const own = (await aPost(t.api, me, { content: 'mine' })).id;
    const theirs = (await aPost(t.api, friend, { content: 'from friend' })).id;
    const strangers = (await aPost(t.api, stranger, { content: 'from stranger' })).id;
    const feed = await t.api.get('posts.php?page=1&per_page=20', { token: me.token });
    const feedIds = feed.body.data.posts.map((p: { id: number }) => p.id);
    expect(feedIds).toEqual([theirs, own]);

    // The friend shares the stranger's post: it appears on the friend's wall and in my feed.
    const share = await t.api.post('shares.php', { post_id: strangers }, { token: friend.token });
    expect(share.status).toBe(200);
    expect(share.body).toMatchObject({ success: true, shared: true, shares_count: 1 });
    expect((await t.api.post('shares.php', {}, { token: friend.token })).status).toBe(400);
    const after = await t.api.get('posts.php', { token: me.token });
    expect(after.body.posts[0]).toMatchObject({ id: strangers, shared_by_username: friend.username, shares_count: 1 });
    const wall = await t.api.get(`posts.php?user_id=${friend.id}`, { token: me.token });
    expect(wall.body.posts.map((p: { id: number }) => p.id)).toEqual([strangers, theirs]);
    expect(wall.body.posts[0].shared_by_username).toBe(friend.username);

    const global = await t.api.get('posts.php?feed_type=global&per_page=100', { token: me.token });
    const globalIds = global.body.posts.map((p: { id: number }) => p.id);
    expect(globalIds).toEqual(expect.arrayContaining([own, theirs, strangers]));
    expect(globalIds.indexOf(strangers)).toBeLessThan(globalIds.indexOf(own));
  });

  it('shows posts of a private account only to its author and followers', async () => {
    const [priv, follower, other] = [await aUser(t.api), await aUser(t.api), await aUser(t.api)];
    const db = t.database.db;
    await db.updateTable('users').set({ is_private: 1 }).where('id', '=', priv.id).execute();
    await aFollow(t.api, follower, priv);
    const id = (await aPost(t.api, priv, { content: 'private thoughts' })).id;
    expect((await t.api.get(`posts.php?id=${id}`, { token: priv.token })).status).toBe(200);
    expect((await t.api.get(`posts.php?id=${id}`, { token: follower.token })).status).toBe(200);
    expect((await t.api.get(`posts.php?id=${id}`, { token: other.token })).status).toBe(404);
    expect((await t.api.get(`posts.php?user_id=${priv.id}`, { token: other.token })).body.posts).toEqual([]);
    const global = await t.api.get('posts.php?feed_type=global&per_page=100', { token: other.token });
    expect(global.body.posts.map((p: { id: number }) => p.id)).not.toContain(id);
    expect((await t.api.post('reactions.php', { post_id: id }, { token: other.token })).status).toBe(404);
  });

  it('lets only the author edit, and the author or a moderator delete; others get 403 and nothing changes', async () => {
    const [author, other, mod] = [await aUser(t.api), await aUser(t.api), await aUser(t.api)];
    await t.database.db.updateTable('users').set({ is_moderator: 1 }).where('id', '=', mod.id).execute();
    const id = (await aPost(t.api, author, { content: 'original' })).id;
    const edit = await t.api.put(`posts.php?id=${id}`, { content: 'hacked' }, { token: other.token });
    expect(edit.status).toBe(403);
    const del = await t.api.delete(`posts.php?id=${id}`, undefined, { token: other.token });
    expect(del.status).toBe(403);
    expect((await t.api.get(`posts.php?id=${id}`, { token: author.token })).body.data.content).toBe('original');

    const ok = await t.api.put(`posts.php?id=${id}`, { content: 'edited #fresh' }, { token: author.token });
    expect(ok.status).toBe(200);
    expect(ok.body.data).toMatchObject({ content: 'edited #fresh', tags: ['fresh'] });
    expect((await t.api.put(`posts.php?id=${id}`, { content: '' }, { token: author.token })).status).toBe(400);

    expect((await t.api.delete(`posts.php?id=${id}`, undefined, { token: mod.token })).status).toBe(200);
    expect((await t.api.get(`posts.php?id=${id}`, { token: author.token })).status).toBe(404);
    const own = (await aPost(t.api, author, { content: 'gone soon' })).id;
    expect((await t.api.delete(`posts.php?id=${own}`, undefined, { token: author.token })).status).toBe(200);
    expect((await t.api.delete(`posts.php?id=${own}`, undefined, { token: author.token })).status).toBe(404);
  });
});
