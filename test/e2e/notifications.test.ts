import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aPost, aUser, type TestUser } from '../support/mothers.js';
import { startTestServer, type TestServer } from '../support/server.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

async function likedPosts(author: TestUser, fans: TestUser[]) {
  const post = (await aPost(t.api, author, { content: 'like me' })).id;
  for (const f of fans) expect((await t.api.post('likes.php', { post_id: post }, { token: f.token })).status).toBe(200);
  return post;
}

describe('notifications.php', () => {
  it('lists notifications under notifications with the §17 keys and JSON types', async () => {
    const [author, fan] = [await aUser(t.api), await aUser(t.api)];
    const post = await likedPosts(author, [fan]);
    const res = await t.api.get('notifications.php?page=1', { token: author.token });
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    expect(res.body.notifications).toHaveLength(1);
    const n = res.body.notifications[0];
    expect(n).toMatchObject({
      type: 'like',
      from_user_id: fan.id,
      from_username: fan.username,
      username: fan.username,
      post_id: post,
      reaction_type: 'like',
      is_read: false,
    });
    expect(typeof n.id).toBe('number');
    expect(typeof n.from_avatar).toBe('string');
    expect(typeof n.content).toBe('string');
    expect(n.created_at).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
  });

  it('counts unread, filters unread=true, marks one and then all read', async () => {
    const author = await aUser(t.api);
    const fans = [await aUser(t.api), await aUser(t.api), await aUser(t.api)];
    await likedPosts(author, fans);
    const count = await t.api.get('notifications.php?action=count', { token: author.token });
    expect(count.status).toBe(200);
    expect(count.body.unread_count).toBe(3);

    const list = await t.api.get('notifications.php', { token: author.token });
    const first = list.body.notifications[0].id as number;
    const one = await t.api.put(`notifications.php?id=${first}`, {}, { token: author.token });
    expect(one.status).toBe(200);
    expect((await t.api.get('notifications.php?action=count', { token: author.token })).body.unread_count).toBe(2);
    const unread = await t.api.get('notifications.php?unread=true', { token: author.token });
    expect(unread.body.notifications).toHaveLength(2);
    expect(unread.body.notifications.map((x: { id: number }) => x.id)).not.toContain(first);
    const all = await t.api.get('notifications.php', { token: author.token });
    expect(all.body.notifications.find((x: { id: number }) => x.id === first).is_read).toBe(true);

    // Someone else cannot mark my notification.
    const other = await aUser(t.api);
    const second = unread.body.notifications[0].id;
    expect((await t.api.put(`notifications.php?id=${second}`, {}, { token: other.token })).status).toBe(404);
    expect((await t.api.get('notifications.php?action=count', { token: author.token })).body.unread_count).toBe(2);

    expect((await t.api.put('notifications.php', { mark_all: true }, { token: author.token })).status).toBe(200);
    expect((await t.api.get('notifications.php?action=count', { token: author.token })).body.unread_count).toBe(0);
    expect((await t.api.get('notifications.php?unread=true', { token: author.token })).body.notifications).toEqual([]);
    expect((await t.api.put('notifications.php', {}, { token: author.token })).status).toBe(400);
  });

  it('paginates 20 per page', async () => {
    const author = await aUser(t.api);
    const fans: TestUser[] = [];
    for (let i = 0; i < 22; i++) fans.push(await aUser(t.api));
    await likedPosts(author, fans);
    const p1 = await t.api.get('notifications.php?page=1', { token: author.token });
    const p2 = await t.api.get('notifications.php?page=2', { token: author.token });
    const p3 = await t.api.get('notifications.php?page=3', { token: author.token });
    expect([p1.body.notifications.length, p2.body.notifications.length, p3.body.notifications.length]).toEqual([20, 2, 0]);
    expect(p1.body.notifications[0].from_user_id).toBe(fans[21].id);
  });

  it('sends a test notification through the push port', async () => {
    const u = await aUser(t.api);
    const res = await t.api.post('notifications.php?action=test', { provider: 'ntfy' }, { token: u.token });
    expect(res.status).toBe(200);
    expect(t.push.sent.filter((s) => s.userId === u.id && s.message.data.type === 'test')).toHaveLength(1);
    // It is listed too, with the non-null integer from_user_id the client requires.
    const [item] = (await t.api.get('notifications.php', { token: u.token })).body.notifications;
    expect(item).toMatchObject({ type: 'test', from_user_id: u.id, is_read: false });
    expect(typeof item.from_username).toBe('string');
    expect((await t.api.post('notifications.php?action=test', { provider: 'carrier-pigeon' }, { token: u.token })).status).toBe(400);
  });
});
