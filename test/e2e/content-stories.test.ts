import { ManualClock } from '@plaza/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aFollow, aUser } from '../support/mothers.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { placeUploaded } from '../support/uploads.js';

let t: TestServer;
const clock = new ManualClock('2026-04-01T08:00:00Z');
beforeAll(async () => {
  t = await startTestServer({ clock });
});
afterAll(() => t.close());

describe('stories.php', () => {
  it('shows active stories of followed accounts and own under items, hides them after 24 hours, and the job purges them', async () => {
    const [me, friend, stranger] = [await aUser(t.api), await aUser(t.api), await aUser(t.api)];
    await aFollow(t.api, me, friend);
    // The media these tests name, stored as upload.php would have, each its sender's (docs/decisions/0114).
    await placeUploaded(t, 'story_abc.jpg', friend);
    await placeUploaded(t, 'story_mine.mp4', me);
    await placeUploaded(t, 'story_other.jpg', stranger);
    const create = await t.api.post('stories.php', { media: 'story_abc.jpg', text: 'hi' }, { token: friend.token });
    expect(create.status).toBe(200);
    const storyId = create.body.id as number;
    clock.advance(60_000);
    await t.api.post('stories.php', { media: 'story_mine.mp4', text: '' }, { token: me.token });
    await t.api.post('stories.php', { media: 'story_other.jpg' }, { token: stranger.token });
    expect((await t.api.post('stories.php', { text: 'no media' }, { token: me.token })).status).toBe(400);

    const list = await t.api.get('stories.php', { token: me.token });
    expect(list.status).toBe(200);
    expect(list.body.items.map((s: { user_id: number }) => s.user_id)).toEqual([me.id, friend.id]);
    expect(list.body.items[1]).toMatchObject({
      id: storyId,
      user_id: friend.id,
      username: friend.username,
      media: 'story_abc.jpg',
      text: 'hi',
      is_viewed: false,
    });
    expect(typeof list.body.items[1].avatar).toBe('string');
    const ofStranger = await t.api.get(`stories.php?user_id=${stranger.id}`, { token: me.token });
    expect(ofStranger.body.items.map((s: { media: string }) => s.media)).toEqual(['story_other.jpg']);

    // Others cannot delete.
    expect((await t.api.delete(`stories.php?id=${storyId}`, undefined, { token: me.token })).status).toBe(403);

    clock.advance(24 * 3600_000 - 30_000); // the friend's story is now past 24 hours, mine is not
    const later = await t.api.get('stories.php', { token: me.token });
    expect(later.body.items.map((s: { user_id: number }) => s.user_id)).toEqual([me.id]);
    expect((await t.api.get(`stories.php?user_id=${friend.id}`, { token: me.token })).body.items).toEqual([]);

    expect(await t.runJob('purge-expired-stories')).toBe(1);
    const rows = await t.database.db.selectFrom('stories').select('id').execute();
    expect(rows.map((r) => r.id)).not.toContain(storyId);
    expect(rows).toHaveLength(2);
  });

  it('deletes own story', async () => {
    const me = await aUser(t.api);
    await placeUploaded(t, 'story_x.jpg', me);
    const id = (await t.api.post('stories.php', { media: 'story_x.jpg' }, { token: me.token })).body.id;
    expect((await t.api.delete(`stories.php?id=${id}`, undefined, { token: me.token })).status).toBe(200);
    expect((await t.api.get(`stories.php?user_id=${me.id}`, { token: me.token })).body.items).toEqual([]);
  });
});
