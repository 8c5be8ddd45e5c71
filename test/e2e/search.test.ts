import { afterAll, describe, expect, it } from 'vitest';
import { aFollow, aFriendship, aPost, aUser } from '../support/mothers.js';
import { startTestServer } from '../support/server.js';
import { uploadedMedia } from '../support/uploads.js';

const t = await startTestServer();
afterAll(() => t.close());

const tag = () =>
  Math.random()
    .toString(36)
    .replace(/[^a-z]/g, '')
    .slice(0, 6)
    .padEnd(6, 'q');
const search = (token: string, query: Record<string, string | number>) =>
  t.api.get(`search.php?${new URLSearchParams(Object.fromEntries(Object.entries(query).map(([k, v]) => [k, String(v)]))).toString()}`, {
    token,
  });

describe('search.php', () => {
  it('finds accounts by the start of their username, exact name first, with the keys of contract §15', async () => {
    const me = await aUser(t.api);
    const w = tag();
    const exact = await aUser(t.api, { username: w });
    const longer = await aUser(t.api, { username: `${w}_longer_name` });
    const friend = await aUser(t.api, { username: `${w}x` });
    await aFriendship(t.api, me, friend);
    await aUser(t.api, { username: `x${w}` });

    const res = await search(me.token, { q: w.toUpperCase(), type: 'users', page: 1 });
    expect(res.status).toBe(200);
    const ids = res.body.items.map((i: { id: number }) => i.id);
    expect(ids).toEqual([exact.id, friend.id, longer.id]);
    expect(res.body.data).toEqual(res.body.items);
    expect(res.body.users).toEqual(res.body.items);
    expect(res.body.posts).toEqual([]);
    expect(res.body.items[0]).toMatchObject({
      type: 'user',
      id: exact.id,
      username: w,
      bio: '',
      avatar: 'default.svg',
      is_online: expect.any(Boolean),
      militant_badge: null,
      is_militant_technician: false,
      is_friend: false,
    });
    expect(res.body.items[1].is_friend).toBe(true);
    // The mention picker sends a prefix with or without @.
    expect((await search(me.token, { q: `@${w}`, type: 'users' })).body.items[0].id).toBe(exact.id);
    // Paginated.
    const page2 = await search(me.token, { q: w, type: 'users', page: 2, per_page: 2 });
    expect(page2.body.items.map((i: { id: number }) => i.id)).toEqual([longer.id]);
  });

  it('finds posts by their words, ranked by relevance then date, with the post keys of contract §15', async () => {
    const me = await aUser(t.api);
    const author = await aUser(t.api);
    const w = tag();
    for (let i = 0; i < 5; i++) await aPost(t.api, author, { content: `unrelated filler number ${i} about the weather` });
    const media = await uploadedMedia(t.api, author, 'posts');
    const once = await aPost(t.api, author, {
      content: `A longer post that mentions ${w}strike only once among many other words`,
      media: [media.filename],
      media_type: 'image',
    });
    const dense = await aPost(t.api, author, { content: `${w}strike ${w}strike ${w}strike!` });
    const both = await aPost(t.api, author, { content: `General ${w}strike and ${w}march today` });

    const res = await search(me.token, { q: `${w}strike`, type: 'posts' });
    expect(res.status).toBe(200);
    const ids = res.body.items.map((i: { id: number }) => i.id);
    expect(ids.sort()).toEqual([once.id, dense.id, both.id].sort());
    expect(res.body.items[0].id).toBe(dense.id);
    expect(res.body.items.at(-1).id).toBe(once.id);
    expect(res.body.data).toEqual(res.body.items);
    const withMedia = res.body.items.find((i: { id: number }) => i.id === once.id);
    expect(withMedia).toMatchObject({
      type: 'post',
      username: author.username,
      user_avatar: 'default.svg',
      militant_badge: null,
      is_militant_technician: false,
      created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
      media_url: media.url,
      image: media.url,
    });
    // Every word must be there; the start of a word is enough.
    const two = await search(me.token, { q: `${w}strike ${w}mar`, type: 'posts' });
    expect(two.body.items.map((i: { id: number }) => i.id)).toEqual([both.id]);
    expect((await search(me.token, { q: `${w}nothing`, type: 'posts' })).body.items).toEqual([]);
    // Words shorter than three characters find no posts (they are not indexed on MySQL).
    expect((await search(me.token, { q: 'xy', type: 'posts' })).body.items).toEqual([]);
  });

  it('hides the posts of a private account from those who may not see them', async () => {
    const author = await aUser(t.api);
    const follower = await aUser(t.api);
    const stranger = await aUser(t.api);
    const w = tag();
    await aFollow(t.api, follower, author);
    const post = await aPost(t.api, author, { content: `Meeting point ${w}secret tonight` });
    await t.database.db.updateTable('users').set({ is_private: 1 }).where('id', '=', author.id).execute();
    const found = async (who: { token: string }) =>
      (await search(who.token, { q: `${w}secret` })).body.posts.map((p: { id: number }) => p.id);
    expect(await found(stranger)).toEqual([]);
    expect(await found(follower)).toEqual([post.id]);
    expect(await found(author)).toEqual([post.id]);
    // The account itself is still found by name.
    expect((await search(stranger.token, { q: author.username, type: 'users' })).body.items[0].id).toBe(author.id);
  });

  it('searches both kinds by default, users first, and refuses bad queries', async () => {
    const me = await aUser(t.api);
    const w = tag();
    const named = await aUser(t.api, { username: `${w}ista` });
    const post = await aPost(t.api, me, { content: `Welcome ${w}ista comrades` });
    const all = await search(me.token, { q: `${w}ista` });
    expect(all.status).toBe(200);
    expect(all.body.type).toBe('all');
    expect(all.body.items.map((i: { type: string; id: number }) => `${i.type}:${i.id}`)).toEqual([`user:${named.id}`, `post:${post.id}`]);

    expect((await search(me.token, { q: '' })).status).toBe(400);
    expect((await search(me.token, { q: 'x', type: 'groups' })).status).toBe(400);
    expect((await search(me.token, { q: 'x'.repeat(201) })).status).toBe(400);
    expect((await t.api.get('search.php?q=x')).status).toBe(401);
    // LIKE and full-text operators are plain text.
    expect((await search(me.token, { q: '%_"*+-()~<>@' })).status).toBe(200);
  });
});
