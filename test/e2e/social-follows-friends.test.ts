import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aUser } from '../support/mothers.js';
import { startTestServer, type TestServer } from '../support/server.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

describe('follows.php', () => {
  it('follows, lists both ways with the contract item shape, counts on the profile, and notifies', async () => {
    const a = await aUser(t.api);
    const b = await aUser(t.api);
    const c = await aUser(t.api);
    expect((await t.api.post('follows.php', { user_id: b.id }, { token: a.token })).status).toBe(200);
    expect((await t.api.post('follows.php', { user_id: b.id }, { token: c.token })).status).toBe(200);

    const followers = await t.api.get(`follows.php?user_id=${b.id}&type=followers&page=1`, { token: a.token });
    expect(followers.status).toBe(200);
    expect(followers.body.success).toBe(true);
    // Newest relation first.
    expect(followers.body.data.map((u: { id: number }) => u.id)).toEqual([c.id, a.id]);
    const item = followers.body.data[1];
    expect(item).toMatchObject({ id: a.id, username: a.username, avatar: expect.any(String), bio: expect.any(String) });
    expect(typeof item.is_online).toBe('boolean');

    // An empty user_id means me.
    const mine = await t.api.get('follows.php?user_id=&type=following&page=1', { token: a.token });
    expect(mine.status).toBe(200);
    expect(mine.body.data.map((u: { id: number }) => u.id)).toEqual([b.id]);

    const profile = await t.api.get(`users.php?id=${b.id}`, { token: a.token });
    expect(profile.body).toMatchObject({ followers_count: 2, following_count: 0, is_following: true });

    const notes = await t.database.db
      .selectFrom('notifications')
      .selectAll()
      .where('user_id', '=', b.id)
      .where('type', '=', 'follow')
      .execute();
    expect(notes.map((n) => Number(n.from_user_id)).sort()).toEqual([a.id, c.id].sort());
  });

  it('treats following twice and unfollowing a stranger as success, and notifies once', async () => {
    const a = await aUser(t.api);
    const b = await aUser(t.api);
    expect((await t.api.post('follows.php', { user_id: b.id }, { token: a.token })).status).toBe(200);
    expect((await t.api.post('follows.php', { user_id: b.id }, { token: a.token })).status).toBe(200);
    const notes = await t.database.db.selectFrom('notifications').selectAll().where('user_id', '=', b.id).execute();
    expect(notes).toHaveLength(1);
    expect((await t.api.delete(`follows.php?user_id=${b.id}`, undefined, { token: a.token })).status).toBe(200);
    expect((await t.api.delete(`follows.php?user_id=${b.id}`, undefined, { token: a.token })).status).toBe(200);
    const profile = await t.api.get(`users.php?id=${b.id}`, { token: a.token });
    expect(profile.body).toMatchObject({ followers_count: 0, is_following: false });
  });

  it('rejects bad input and unknown users', async () => {
    const a = await aUser(t.api);
    expect((await t.api.post('follows.php', { user_id: 'abc' }, { token: a.token })).status).toBe(400);
    expect((await t.api.post('follows.php', { user_id: a.id }, { token: a.token })).status).toBe(400);
    expect((await t.api.post('follows.php', { user_id: 999999 }, { token: a.token })).status).toBe(404);
    expect((await t.api.get('follows.php?user_id=999999&type=followers', { token: a.token })).status).toBe(404);
    expect((await t.api.get('follows.php?type=followers')).status).toBe(401);
  });
});

describe('friends.php', () => {
  it('sends, lists pending, accepts only by the addressee, then lists friends both ways', async () => {
    const a = await aUser(t.api);
    const b = await aUser(t.api);
    const x = await aUser(t.api);
    const sent = await t.api.post('friends.php', { action: 'send', user_id: b.id }, { token: a.token });
    expect(sent.status).toBe(200);
    expect(typeof sent.body.request_id).toBe('number');
    const requestId = sent.body.request_id;

    const seenByA = await t.api.get(`users.php?id=${b.id}`, { token: a.token });
    expect(seenByA.body).toMatchObject({ sent_request_id: requestId, received_request_id: null, is_friend: false });
    const seenByB = await t.api.get(`users.php?id=${a.id}`, { token: b.token });
    expect(seenByB.body).toMatchObject({ received_request_id: requestId, sent_request_id: null });

    const pending = await t.api.get('friends.php?type=pending&page=1', { token: b.token });
    expect(pending.status).toBe(200);
    expect(pending.body.pending_requests).toEqual([
      expect.objectContaining({
        id: a.id,
        username: a.username,
        avatar: expect.any(String),
        bio: expect.any(String),
        request_id: requestId,
      }),
    ]);

    // Neither the sender nor a stranger may answer it.
    for (const who of [a, x]) {
      const res = await t.api.post('friends.php', { action: 'accept', request_id: requestId }, { token: who.token });
      expect(res.status).toBe(403);
    }
    expect((await t.api.get('friends.php?type=friends', { token: a.token })).body.friends).toEqual([]);

    const accepted = await t.api.post('friends.php', { action: 'accept', request_id: requestId }, { token: b.token });
    expect(accepted.status).toBe(200);
    const again = await t.api.post('friends.php', { action: 'accept', request_id: requestId }, { token: b.token });
    expect(again.status).toBe(409);

    const fa = await t.api.get('friends.php?type=friends', { token: a.token });
    expect(fa.body.friends.map((f: { id: number }) => f.id)).toEqual([b.id]);
    expect(fa.body.data).toEqual(fa.body.friends);
    const all = await t.api.get('friends.php', { token: b.token });
    expect(all.body.friends.map((f: { id: number }) => f.id)).toEqual([a.id]);
    expect(all.body.pending_requests).toEqual([]);
    expect((await t.api.get(`users.php?id=${b.id}`, { token: a.token })).body.is_friend).toBe(true);

    const notes = await t.database.db
      .selectFrom('notifications')
      .select(['user_id', 'type'])
      .where('type', 'in', ['friend_request', 'friend_accept'])
      .where('from_user_id', 'in', [a.id, b.id])
      .execute();
    expect(notes.map((n) => `${n.user_id}:${n.type}`).sort()).toEqual([`${a.id}:friend_accept`, `${b.id}:friend_request`].sort());

    const removed = await t.api.delete(`friends.php?user_id=${b.id}`, undefined, { token: a.token });
    expect(removed.status).toBe(200);
    expect((await t.api.get('friends.php?type=friends', { token: b.token })).body.friends).toEqual([]);
  });

  it('rejects, after which the sender may ask again; invalid input is a 400', async () => {
    const a = await aUser(t.api);
    const b = await aUser(t.api);
    const first = await t.api.post('friends.php', { action: 'send', user_id: b.id }, { token: a.token });
    expect((await t.api.post('friends.php', { action: 'reject', request_id: first.body.request_id }, { token: b.token })).status).toBe(200);
    expect((await t.api.get('friends.php?type=pending', { token: b.token })).body.pending_requests).toEqual([]);
    const second = await t.api.post('friends.php', { action: 'send', user_id: b.id }, { token: a.token });
    expect(second.status).toBe(200);
    expect((await t.api.get('friends.php?type=pending', { token: b.token })).body.pending_requests).toHaveLength(1);
    expect((await t.api.post('friends.php', { action: 'send' }, { token: a.token })).status).toBe(400);
    expect((await t.api.post('friends.php', { action: 'dance', user_id: b.id }, { token: a.token })).status).toBe(400);
    expect((await t.api.post('friends.php', { action: 'accept', request_id: 987654 }, { token: b.token })).status).toBe(404);
  });
});
