import { ManualClock } from '@plaza/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aFollow, aFriendship, aMessage, aPost, aUser, type TestUser } from '../support/mothers.js';
import { startTestServer, type TestServer } from '../support/server.js';

let t: TestServer;
const clock = new ManualClock('2026-04-10T09:00:00Z');
beforeAll(async () => {
  t = await startTestServer({ clock });
});
afterAll(() => t.close());

const KEYS = [
  'notifications_push',
  'notifications_likes',
  'notifications_comments',
  'notifications_follows',
  'notifications_mentions',
  'notifications_messages',
  'notifications_friend_requests',
  'notifications_email',
  'privacy_private_account',
  'privacy_allow_messages',
  'privacy_online_status',
  'privacy_read_receipts',
];

async function set(u: TestUser, body: Record<string, unknown>) {
  const res = await t.api.put('user_preferences.php', body, { token: u.token });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

async function notificationTypes(u: TestUser): Promise<string[]> {
  const res = await t.api.get('notifications.php', { token: u.token });
  return res.body.notifications.map((n: { type: string }) => n.type);
}

describe('user_preferences.php', () => {
  it('answers both clients’ keys at the top level as JSON booleans', async () => {
    const u = await aUser(t.api);
    const res = await t.api.get('user_preferences.php', { token: u.token });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['success', ...KEYS].sort());
    for (const k of KEYS) expect(typeof res.body[k], k).toBe('boolean');
    expect(res.body).toMatchObject({ success: true, notifications_push: true, notifications_email: false, privacy_private_account: false });
  });

  it('changes one key at a time from booleans, 0/1 and their strings, and the e-mail alias', async () => {
    const u = await aUser(t.api);
    expect(await set(u, { notifications_likes: false })).toMatchObject({ notifications_likes: false, notifications_comments: true });
    expect(await set(u, { notifications_likes: 1 })).toMatchObject({ notifications_likes: true });
    expect(await set(u, { notifications_comments: '0' })).toMatchObject({ notifications_comments: false });
    expect(await set(u, { notifications_comments: 'true' })).toMatchObject({ notifications_comments: true });
    expect(await set(u, { email_notifications: true })).toMatchObject({ notifications_email: true });
    expect((await t.api.get('user_preferences.php', { token: u.token })).body).toMatchObject({
      notifications_likes: true,
      notifications_email: true,
    });
  });

  it('refuses unknown keys, odd values and an empty body with a 400 that changes nothing', async () => {
    const u = await aUser(t.api);
    for (const body of [
      { notifications_likes: 'yes' },
      { notifications_likes: 2 },
      { notifications_likes: null },
      { nope: true },
      { notifications_likes: false, extra: 1 },
      {},
    ]) {
      const res = await t.api.put('user_preferences.php', body, { token: u.token });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.success).toBe(false);
    }
    expect((await t.api.get('user_preferences.php', { token: u.token })).body.notifications_likes).toBe(true);
  });

  it('stays consistent under 20 identical changes at once', async () => {
    const u = await aUser(t.api);
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => t.api.put('user_preferences.php', { notifications_follows: false }, { token: u.token })),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
    const rows = await t.database.db.selectFrom('user_preferences').selectAll().where('user_id', '=', u.id).execute();
    expect(rows).toEqual([expect.objectContaining({ pref_key: 'notifications_follows', enabled: 0 })]);
  });
});

describe('the effect of each preference', () => {
  it('notifications_follows, _likes, _comments, _mentions and _friend_requests: no notification of that kind', async () => {
    const [a, b] = [await aUser(t.api), await aUser(t.api)];
    await set(a, { notifications_follows: false });
    await set(a, { notifications_likes: false });
    await set(a, { notifications_comments: false });
    await set(a, { notifications_mentions: false });
    await set(a, { notifications_friend_requests: false });
    const post = await aPost(t.api, a);
    await aFollow(t.api, b, a);
    await t.api.post('likes.php', { post_id: post.id }, { token: b.token });
    await t.api.post('comments.php', { post_id: post.id, content: 'nice' }, { token: b.token });
    await aPost(t.api, b, { content: `hello @${a.username}` });
    await t.api.post('friends.php', { action: 'send', user_id: a.id }, { token: b.token });
    expect(await notificationTypes(a)).toEqual([]);
    expect(t.push.sent.filter((p) => p.userId === a.id)).toEqual([]);
    // Switched back on, the same kind is stored and pushed again.
    await set(a, { notifications_likes: true });
    await t.api.post('reactions.php', { post_id: post.id, reaction_type: 'love' }, { token: (await aUser(t.api)).token });
    expect((await notificationTypes(a)).length).toBe(1);
    expect(t.push.sent.filter((p) => p.userId === a.id)).toHaveLength(1);
  });

  it('notifications_push: stored, never pushed; notifications_messages: message pushes stop', async () => {
    const [a, b] = [await aUser(t.api), await aUser(t.api)];
    await set(a, { notifications_push: false });
    await aFollow(t.api, b, a);
    expect(await notificationTypes(a)).toEqual(['follow']);
    expect(t.push.sent.filter((p) => p.userId === a.id)).toEqual([]);
    const [c, d] = [await aUser(t.api), await aUser(t.api)];
    await set(c, { notifications_messages: false });
    await aMessage(t.api, d, c);
    await aMessage(t.api, c, d);
    expect(t.push.sent.filter((p) => p.userId === c.id)).toEqual([]);
    expect(t.push.sent.filter((p) => p.userId === d.id && p.message.data.type === 'message')).toHaveLength(1);
  });

  it('notifications_email: a copy of each notification by e-mail, sent by the delivery job', async () => {
    const [a, b, c] = [await aUser(t.api), await aUser(t.api), await aUser(t.api)];
    await aFollow(t.api, b, a);
    await set(a, { notifications_email: true });
    await aFollow(t.api, c, a);
    await t.runJob('deliver-mail');
    const copies = t.mailer.sent.filter((m) => m.to === a.email);
    expect(copies).toHaveLength(1);
    expect(copies[0].text).toContain(`${c.username} started following you`);
    expect(copies[0].html).toContain(`${c.username} started following you`);
    await set(a, { notifications_email: false });
    await aFollow(t.api, b, c);
    await aFollow(t.api, await aUser(t.api), a);
    await t.runJob('deliver-mail');
    expect(t.mailer.sent.filter((m) => m.to === a.email)).toHaveLength(1);
  });

  it('privacy_private_account: posts hidden from non-followers in every list, bookmarks included', async () => {
    const [a, b, follower] = [await aUser(t.api), await aUser(t.api), await aUser(t.api)];
    await aFollow(t.api, follower, a);
    const post = await aPost(t.api, a, { content: 'soon private' });
    await t.api.post('bookmarks.php', { post_id: post.id }, { token: b.token });
    const sees = async (u: TestUser) => ({
      global: (await t.api.get('posts.php?feed_type=global', { token: u.token })).body.posts.some((p: { id: number }) => p.id === post.id),
      wall: (await t.api.get(`posts.php?user_id=${a.id}`, { token: u.token })).body.posts.some((p: { id: number }) => p.id === post.id),
      single: (await t.api.get(`posts.php?id=${post.id}`, { token: u.token })).status === 200,
      bookmarks: (await t.api.get('bookmarks.php', { token: u.token })).body.bookmarks.some((p: { id: number }) => p.id === post.id),
    });
    expect(await sees(b)).toEqual({ global: true, wall: true, single: true, bookmarks: true });
    expect(await set(a, { privacy_private_account: true })).toMatchObject({ privacy_private_account: true });
    expect(await sees(b)).toEqual({ global: false, wall: false, single: false, bookmarks: false });
    expect((await sees(follower)).single).toBe(true);
    expect((await t.api.get('users.php', { token: a.token })).body.is_private).toBe(true);
    // Following makes them visible again, in the following feed too; the global feed lists public accounts only.
    await aFollow(t.api, b, a);
    expect(await sees(b)).toEqual({ global: false, wall: true, single: true, bookmarks: true });
    expect((await t.api.get('posts.php', { token: b.token })).body.posts.some((p: { id: number }) => p.id === post.id)).toBe(true);
  });

  it('privacy_allow_messages: only friends and followed people may write', async () => {
    const [a, stranger, friend, followed] = [await aUser(t.api), await aUser(t.api), await aUser(t.api), await aUser(t.api)];
    await aFriendship(t.api, a, friend);
    await aFollow(t.api, a, followed);
    await set(a, { privacy_allow_messages: false });
    const refused = await t.api.post('messages.php', { user_id: a.id, content: 'hi' }, { token: stranger.token });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('messages_not_allowed');
    expect((await t.api.get(`messages.php?user_id=${stranger.id}`, { token: a.token })).body.data.data).toEqual([]);
    await aMessage(t.api, friend, a);
    await aMessage(t.api, followed, a);
    // A follow from the stranger is not enough: it is whom `a` follows that counts.
    await aFollow(t.api, stranger, a);
    expect((await t.api.post('messages.php', { user_id: a.id, content: 'hi' }, { token: stranger.token })).status).toBe(403);
    await set(a, { privacy_allow_messages: true });
    await aMessage(t.api, stranger, a);
  });

  it('privacy_online_status: is_online and last_active hidden from others, not from oneself', async () => {
    const [a, b] = [await aUser(t.api), await aUser(t.api)];
    await aFollow(t.api, b, a);
    await t.api.get('users.php', { token: a.token });
    expect((await t.api.get(`users.php?id=${a.id}`, { token: b.token })).body).toMatchObject({
      is_online: true,
      last_active: expect.any(String),
    });
    await set(a, { privacy_online_status: false });
    expect((await t.api.get(`users.php?id=${a.id}`, { token: b.token })).body).toMatchObject({ is_online: false, last_active: null });
    const following = await t.api.get('follows.php?type=following', { token: b.token });
    expect(following.body.data.find((x: { id: number }) => x.id === a.id)).toMatchObject({ is_online: false });
    expect((await t.api.get('users.php', { token: a.token })).body).toMatchObject({ is_online: true, last_active: expect.any(String) });
  });

  it('privacy_read_receipts: the sender no longer sees that a message was read', async () => {
    const [a, b] = [await aUser(t.api), await aUser(t.api)];
    const first = await aMessage(t.api, b, a, { content: 'read me' });
    await t.api.get(`messages.php?user_id=${b.id}`, { token: a.token });
    const isRead = async (id: number) =>
      (await t.api.get(`messages.php?user_id=${a.id}`, { token: b.token })).body.data.data.find((m: { id: number }) => m.id === id).is_read;
    expect(await isRead(first.id)).toBe(true);
    await set(a, { privacy_read_receipts: false });
    expect(await isRead(first.id)).toBe(false);
    // Their own view of what they received is theirs.
    const own = await t.api.get(`messages.php?user_id=${b.id}`, { token: a.token });
    expect(own.body.data.data.find((m: { id: number }) => m.id === first.id).is_read).toBe(true);
  });
});

describe('change_password.php', () => {
  it('needs the current password (403), a new one of 8 characters (400), and ends the other sessions', async () => {
    const u = await aUser(t.api);
    const other = (await t.api.post('auth.php', { username: u.username, password: u.password })).body.token as string;
    const wrong = await t.api.post(
      'change_password.php',
      { current_password: 'not it', new_password: 'a good new password' },
      { token: u.token },
    );
    expect(wrong.status).toBe(403);
    expect(wrong.body.code).toBe('wrong_password');
    const short = await t.api.post('change_password.php', { current_password: u.password, new_password: 'short' }, { token: u.token });
    expect(short.status).toBe(400);
    expect(short.body.code).toBe('password_too_short');
    expect((await t.api.post('change_password.php', { new_password: 'a good new password' }, { token: u.token })).status).toBe(400);
    expect((await t.api.get('users.php', { token: other })).status).toBe(200);
    const ok = await t.api.post(
      'change_password.php',
      { current_password: u.password, new_password: 'a good new password' },
      { token: u.token },
    );
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ success: true, revoked_sessions: 1 });
    expect((await t.api.get('users.php', { token: other })).status).toBe(401);
    expect((await t.api.get('users.php', { token: u.token })).status).toBe(200);
    expect((await t.api.post('auth.php', { username: u.username, password: 'a good new password' })).body.success).toBe(true);
    expect((await t.api.post('auth.php', { username: u.username, password: u.password })).body.success).toBe(false);
  });

  it('applies one of 20 identical changes at once; the others are told it changed meanwhile', async () => {
    const u = await aUser(t.api);
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        t.api.post('change_password.php', { current_password: u.password, new_password: 'twenty at once' }, { token: u.token }),
      ),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.status !== 200).every((a) => a.status === 409 || a.status === 403)).toBe(true);
    expect((await t.api.post('auth.php', { username: u.username, password: 'twenty at once' })).body.success).toBe(true);
  });
});
