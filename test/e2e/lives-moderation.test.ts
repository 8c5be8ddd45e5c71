import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aLive, aUser, type TestUser } from '../support/mothers.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { placeUploaded } from '../support/uploads.js';

let t: TestServer;
let host: TestUser;
let mod: TestUser;
let viewer: TestUser;
let troll: TestUser;

beforeAll(async () => {
  t = await startTestServer({
    env: {
      LIVE_REPORT_SUSPEND_THRESHOLD: '2',
      MEDIA_SERVER_URL: 'wss://m.test',
      MEDIA_SERVER_API_KEY: 'k',
      MEDIA_SERVER_API_SECRET: 'a-secret-long-enough-for-hs256-xx',
    },
  });
  [host, mod, viewer, troll] = [await aUser(t.api), await aUser(t.api), await aUser(t.api), await aUser(t.api)];
  // The media these tests name, stored as upload.php would have, each its sender's (docs/decisions/0114).
  await placeUploaded(t, 'uploads/posts/media_bg42.jpg', host);
  await placeUploaded(t, 'uploads/posts/media_x1.jpg', viewer);
});
afterAll(() => t.close());

const as = (u: TestUser) => ({ token: u.token });

describe('lives.php comments', () => {
  it('posts answering a positive comment_id, lists the newest page oldest first, and deletes by author or host only', async () => {
    const { id } = await aLive(t.api, host);
    const ids: number[] = [];
    for (let i = 1; i <= 3; i++) {
      const res = await t.api.post(`lives.php?path=${id}/comments`, { content: `hello ${i}` }, as(viewer));
      expect(res.status).toBe(200);
      expect(res.body.comment_id).toBeGreaterThan(0);
      ids.push(res.body.comment_id);
    }
    const page = await t.api.get(`lives.php?path=${id}/comments&page=1&per_page=2`, as(troll));
    expect(page.body.comments.map((c: { content: string }) => c.content)).toEqual(['hello 2', 'hello 3']);
    expect(page.body.comments[0]).toMatchObject({ user_id: viewer.id, username: viewer.username });
    expect(page.body.meta.total).toBe(3);

    expect((await t.api.delete(`lives.php?path=${id}/comments/${ids[0]}`, undefined, as(troll))).status).toBe(403);
    expect((await t.api.delete(`lives.php?path=${id}/comments/${ids[0]}`, undefined, as(viewer))).status).toBe(200);
    expect((await t.api.delete(`lives.php?path=${id}/comments/${ids[1]}`, undefined, as(host))).status).toBe(200);
    expect((await t.api.delete(`lives.php?path=${id}/comments/${ids[1]}`, undefined, as(host))).status).toBe(404);
    expect((await t.api.get(`lives.php?path=${id}/comments`, as(host))).body.comments.map((c: { id: number }) => c.id)).toEqual([ids[2]]);
    expect((await t.api.post(`lives.php?path=${id}/comments`, { content: '   ' }, as(viewer))).status).toBe(400);
  });
});

describe('lives.php moderation', () => {
  it('lets the creator appoint a moderator who then blocks a user from the chat; the state shows both', async () => {
    const { id } = await aLive(t.api, host);
    expect((await t.api.put(`lives.php?path=${id}/moderators/${mod.id}`, {}, as(viewer))).status).toBe(403);
    const appointed = await t.api.put(`lives.php?path=${id}/moderators/${mod.id}`, {}, as(host));
    expect(appointed.status).toBe(200);
    expect(appointed.body.moderator_user_ids).toEqual([mod.id]);
    expect((await t.api.put(`lives.php?path=${id}/chat-blocks/${troll.id}`, {}, as(viewer))).status).toBe(403);
    const blocked = await t.api.put(`lives.php?path=${id}/chat-blocks/${troll.id}`, {}, as(mod));
    expect(blocked.body.blocked_user_ids).toEqual([troll.id]);
    expect((await t.api.put(`lives.php?path=${id}/chat-blocks/${host.id}`, {}, as(mod))).status).toBe(400);

    const refused = await t.api.post(`lives.php?path=${id}/comments`, { content: 'spam' }, as(troll));
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('chat_blocked');

    const mine = await t.api.get(`lives.php?path=${id}/moderation`, as(troll));
    expect(mine.body).toEqual({
      success: true,
      moderator_user_ids: [mod.id],
      blocked_user_ids: [troll.id],
      my_is_moderator: false,
      my_chat_blocked: true,
      is_suspended: false,
      report_count: 0,
    });
    expect((await t.api.get(`lives.php?path=${id}/moderation`, as(mod))).body.my_is_moderator).toBe(true);

    // A live moderator deletes other people's comments and decides on guests.
    const c = await t.api.post(`lives.php?path=${id}/comments`, { content: 'rude' }, as(viewer));
    expect((await t.api.delete(`lives.php?path=${id}/comments/${c.body.comment_id}`, undefined, as(mod))).status).toBe(200);
    await t.api.post(`lives.php?path=${id}/request-guest`, {}, as(viewer));
    expect((await t.api.put(`lives.php?path=${id}/guests/${viewer.id}/approve`, {}, as(mod))).status).toBe(200);
    // A user blocked from the chat gets no data grant in the media room.
    const token = await t.api.post(
      'lives.php?path=token',
      { roomName: `live-${id}`, identity: `u${troll.id}-t`, name: 'T', canPublishData: true },
      as(troll),
    );
    expect(token.body.grants).toEqual({ canPublish: false, canPublishData: false, canSubscribe: true });
  });

  it('counts one report per user, suspends at the threshold, and shows the queue to moderators only', async () => {
    const { id } = await aLive(t.api, host, { title: 'Reported live' });
    expect((await t.api.post(`lives.php?path=${id}/report`, { reason: 'rude words' }, as(viewer))).status).toBe(400);
    expect((await t.api.post(`lives.php?path=${id}/report`, { reason: 'spam' }, as(host))).status).toBe(400);
    const first = await t.api.post(`lives.php?path=${id}/report`, { reason: 'spam', description: 'ads' }, as(viewer));
    expect(first.body).toMatchObject({
      success: true,
      report_count: 1,
      is_suspended: false,
      title: 'Reported live',
      already_reported: false,
    });
    const again = await t.api.post(`lives.php?path=${id}/report`, { reason: 'spam' }, as(viewer));
    expect(again.body).toMatchObject({ report_count: 1, already_reported: true });
    const second = await t.api.post(`lives.php?path=${id}/report`, { reason: 'harassment' }, as(troll));
    expect(second.body).toMatchObject({ report_count: 2, is_suspended: true });
    expect((await t.api.get(`lives.php?path=${id}`, as(viewer))).body.live).toMatchObject({ report_count: 2, is_suspended: true });
    // Suspended: no more viewers in the room, and no broadcasting.
    expect(
      (await t.api.post('lives.php?path=token', { roomName: `live-${id}`, identity: `u${viewer.id}-v`, name: 'V' }, as(viewer))).status,
    ).toBe(403);
    const hostToken = await t.api.post(
      'lives.php?path=token',
      { roomName: `live-${id}`, identity: `u${host.id}-h`, name: 'H', canPublish: true },
      as(host),
    );
    expect(hostToken.body.grants.canPublish).toBe(false);

    expect((await t.api.get('lives.php?path=moderation/reports', as(viewer))).status).toBe(403);
    const admin = await aUser(t.api);
    await t.database.db
      .updateTable('users' as never)
      .set({ is_admin: 1 } as never)
      .where('id' as never, '=', admin.id as never)
      .execute();
    const queue = await t.api.get('lives.php?path=moderation/reports', as(admin));
    expect(queue.status).toBe(200);
    expect(queue.body.reports.slice(0, 2)).toEqual([
      expect.objectContaining({
        live_id: id,
        title: 'Reported live',
        creator_name: host.username,
        reporter_name: troll.username,
        reason: 'harassment',
        live_status: 'active',
      }),
      expect.objectContaining({ live_id: id, reporter_name: viewer.username, reason: 'spam', description: 'ads' }),
    ]);
  });

  it('20 identical reports at once count once', async () => {
    const { id } = await aLive(t.api, host);
    const results = await Promise.all(
      Array.from({ length: 20 }, () => t.api.post(`lives.php?path=${id}/report`, { reason: 'spam' }, as(viewer))),
    );
    expect(results.map((r) => r.status)).toEqual(Array(20).fill(200));
    expect(results.filter((r) => r.body.already_reported === false)).toHaveLength(1);
    expect((await t.api.get(`lives.php?path=${id}`, as(viewer))).body.live.report_count).toBe(1);
  });
});

describe('lives.php background', () => {
  it('sets an uploaded background, answers success and background_image, and removes it with null', async () => {
    const { id } = await aLive(t.api, host);
    const set = await t.api.put(`lives.php?path=${id}/background`, { background_image: 'uploads/posts/media_bg42.jpg' }, as(host));
    expect(set.status).toBe(200);
    expect(set.body).toEqual({ success: true, background_image: 'uploads/posts/media_bg42.jpg' });
    expect((await t.api.get(`lives.php?path=${id}`, as(viewer))).body.live.background_image).toBe('uploads/posts/media_bg42.jpg');
    expect(
      (await t.api.put(`lives.php?path=${id}/background`, { background_image: 'https://tracker.example/p.gif' }, as(host))).status,
    ).toBe(400);
    expect(
      (await t.api.put(`lives.php?path=${id}/background`, { background_image: 'uploads/posts/media_x1.jpg' }, as(viewer))).status,
    ).toBe(403);
    expect((await t.api.get(`lives.php?path=${id}`, as(viewer))).body.live.background_image).toBe('uploads/posts/media_bg42.jpg');
    const removed = await t.api.put(`lives.php?path=${id}/background`, { background_image: null }, as(host));
    expect(removed.body).toEqual({ success: true, background_image: null });
    expect((await t.api.get(`lives.php?path=${id}`, as(viewer))).body.live.background_image).toBeNull();
  });
});
