import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aPost, aUser, type TestUser } from '../support/mothers.js';
import { startTestServer, type TestServer } from '../support/server.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

async function getPost(u: TestUser, id: number) {
  const res = await t.api.get(`posts.php?id=${id}`, { token: u.token });
  expect(res.status).toBe(200);
  return res.body.data;
}

async function notificationsOf(u: TestUser) {
  const res = await t.api.get('notifications.php?per_page=100', { token: u.token });
  expect(res.status).toBe(200);
  return res.body.notifications as { type: string; from_user_id: number; post_id: number; reaction_type: string | null }[];
}

describe('reactions.php and likes.php', () => {
  it('reacts once per user, a new reaction replaces the old, and unreacting decrements', async () => {
    const [author, fan] = [await aUser(t.api), await aUser(t.api)];
    const id = (await aPost(t.api, author)).id;
    const r1 = await t.api.post('reactions.php', { post_id: id, reaction_type: 'love' }, { token: fan.token });
    expect(r1.status).toBe(200);
    expect(r1.body).toMatchObject({ success: true, likes_count: 1, reaction_type: 'love' });
    const r2 = await t.api.post('reactions.php', { post_id: id, reaction_type: 'haha' }, { token: fan.token });
    expect(r2.body.likes_count).toBe(1);
    expect(await getPost(fan, id)).toMatchObject({ likes_count: 1, is_liked: true, reaction_type: 'haha' });
    expect(await getPost(author, id)).toMatchObject({ likes_count: 1, is_liked: false, reaction_type: null });
    const counts = await t.api.get(`reactions.php?post_id=${id}`, { token: author.token });
    expect(counts.body.data).toMatchObject({ counts: { haha: 1 }, total: 1 });

    const del = await t.api.delete(`reactions.php?post_id=${id}`, undefined, { token: fan.token });
    expect(del.status).toBe(200);
    expect(del.body.likes_count).toBe(0);
    expect((await t.api.delete(`reactions.php?post_id=${id}`, undefined, { token: fan.token })).body).toMatchObject({
      removed: false,
      likes_count: 0,
    });

    const like = await t.api.post('likes.php', { post_id: id }, { token: fan.token });
    expect(like.status).toBe(200);
    expect(await getPost(fan, id)).toMatchObject({ likes_count: 1, is_liked: true, reaction_type: 'like' });
    expect((await t.api.delete(`likes.php?post_id=${id}`, undefined, { token: fan.token })).status).toBe(200);
    expect((await getPost(fan, id)).likes_count).toBe(0);
  });

  it('rejects an unknown reaction type and an unknown post', async () => {
    const u = await aUser(t.api);
    const id = (await aPost(t.api, u)).id;
    const bad = await t.api.post('reactions.php', { post_id: id, reaction_type: 'thumbs_down' }, { token: u.token });
    expect(bad.status).toBe(400);
    expect(bad.body.success).toBe(false);
    expect((await t.api.post('reactions.php', { post_id: 99999999 }, { token: u.token })).status).toBe(404);
    expect((await getPost(u, id)).likes_count).toBe(0);
  });

  it('keeps counters consistent under 20 concurrent reactions from different users', async () => {
    const author = await aUser(t.api);
    const id = (await aPost(t.api, author)).id;
    const fans: TestUser[] = [];
    for (let i = 0; i < 20; i++) fans.push(await aUser(t.api));
    const results = await Promise.all(
      fans.map((f, i) => t.api.post('reactions.php', { post_id: id, reaction_type: i % 2 ? 'like' : 'wow' }, { token: f.token })),
    );
    expect(results.every((r) => r.status === 200)).toBe(true);
    expect((await getPost(author, id)).likes_count).toBe(20);
    // Half of them remove, concurrently, while the others change their reaction.
    await Promise.all(
      fans.map((f, i) =>
        i < 10
          ? t.api.delete(`reactions.php?post_id=${id}`, undefined, { token: f.token })
          : t.api.post('reactions.php', { post_id: id, reaction_type: 'sad' }, { token: f.token }),
      ),
    );
    expect((await getPost(author, id)).likes_count).toBe(10);
    const counts = await t.api.get(`reactions.php?post_id=${id}`, { token: author.token });
    expect(counts.body.data.total).toBe(10);
  });

  it('notifies the author of likes, reactions and shares by others, never of their own', async () => {
    const [author, fan] = [await aUser(t.api), await aUser(t.api)];
    const id = (await aPost(t.api, author)).id;
    await t.api.post('likes.php', { post_id: id }, { token: author.token });
    await t.api.post('shares.php', { post_id: id }, { token: author.token });
    expect(await notificationsOf(author)).toEqual([]);
    await t.api.post('likes.php', { post_id: id }, { token: fan.token });
    await t.api.post('reactions.php', { post_id: id, reaction_type: 'angry' }, { token: fan.token });
    await t.api.post('shares.php', { post_id: id }, { token: fan.token });
    const list = await notificationsOf(author);
    expect(list.map((n) => n.type)).toEqual(['share', 'reaction', 'like']);
    expect(list[1]).toMatchObject({ from_user_id: fan.id, post_id: id, reaction_type: 'angry' });
    expect(await notificationsOf(fan)).toEqual([]);
    expect(t.push.sent.some((s) => s.userId === author.id && s.message.data.type === 'like')).toBe(true);
  });
});

describe('bookmarks.php', () => {
  it('adds (twice is fine), lists as posts under data and bookmarks, and removes', async () => {
    const [author, reader] = [await aUser(t.api), await aUser(t.api)];
    const a = (await aPost(t.api, author, { content: 'first' })).id;
    const b = (await aPost(t.api, author, { content: 'second' })).id;
    expect((await t.api.post('bookmarks.php', { post_id: a }, { token: reader.token })).status).toBe(200);
    expect((await t.api.post('bookmarks.php', { post_id: a }, { token: reader.token })).status).toBe(200);
    expect((await t.api.post('bookmarks.php', { post_id: b }, { token: reader.token })).status).toBe(200);
    const list = await t.api.get('bookmarks.php?page=1', { token: reader.token });
    expect(list.status).toBe(200);
    expect(list.body.data).toHaveLength(2);
    expect(list.body.bookmarks).toHaveLength(2);
    expect(list.body.data.map((p: { id: number }) => p.id).sort()).toEqual([a, b].sort());
    expect(list.body.data[0]).toMatchObject({ type: 'post', is_bookmarked: true, username: author.username });
    expect((await getPost(reader, a)).is_bookmarked).toBe(true);
    expect((await t.api.delete(`bookmarks.php?post_id=${a}`, undefined, { token: reader.token })).status).toBe(200);
    const after = await t.api.get('bookmarks.php', { token: reader.token });
    expect(after.body.data.map((p: { id: number }) => p.id)).toEqual([b]);
    expect((await t.api.get('bookmarks.php', { token: author.token })).body.data).toEqual([]);
    expect((await t.api.post('bookmarks.php', { post_id: 99999999 }, { token: reader.token })).status).toBe(404);
  });
});
