import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aCommunityGroup, aFollow, aGroupMembership, aPage, aUser, type TestUser } from '../support/mothers.js';
import { startTestServer, type TestServer } from '../support/server.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

const ids = (items: { id: number }[]) => items.map((i) => i.id);
const discover = (u: TestUser, query = '') => t.api.get(`discover.php${query}`, { token: u.token });

describe('discover.php', () => {
  it('suggests accounts, public groups and pages under data, never oneself, followed accounts or what one already has', async () => {
    const cause = `Cause ${Date.now()}`;
    const [me, followed, fellow, stranger, other] = [
      await aUser(t.api),
      await aUser(t.api),
      await aUser(t.api),
      await aUser(t.api),
      await aUser(t.api),
    ];
    await t.api.put('users.php', { cause }, { token: me.token });
    await t.api.put('users.php', { cause: cause.toUpperCase() }, { token: fellow.token });
    await aFollow(t.api, me, followed);
    const openGroup = await aCommunityGroup(t.api, other, { privacy: 'public' });
    const joined = await aCommunityGroup(t.api, other, { privacy: 'public' });
    await aGroupMembership(t.api, joined, [me], other);
    const hiddenGroup = await aCommunityGroup(t.api, other, { privacy: 'private' });
    const theirPage = await aPage(t.api, other);
    const myPage = await aPage(t.api, me);

    const res = await discover(me, '?per_page=50');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, type: 'all' });
    const { users, groups, pages } = res.body.data;
    const everyone = [...users.new_users, ...users.same_cause, ...users.random];
    for (const hidden of [me.id, followed.id]) expect(ids(everyone)).not.toContain(hidden);
    expect(new Set(ids(everyone)).size).toBe(everyone.length);
    expect(ids(users.new_users).slice(0, 2)).toEqual([other.id, stranger.id]);
    // The same cause whatever its case; each account in one list only.
    expect(ids(users.same_cause)).toEqual([]);
    expect(ids(users.new_users)).toContain(fellow.id);
    expect(users.new_users.find((u: { id: number }) => u.id === fellow.id)).toMatchObject({
      id: fellow.id,
      username: fellow.username,
      avatar: 'default.svg',
      is_online: expect.any(Boolean),
      cause: cause.toUpperCase(),
    });

    expect(ids(groups)).toContain(openGroup.id);
    for (const hidden of [joined.id, hiddenGroup.id]) expect(ids(groups)).not.toContain(hidden);
    expect(groups.find((g: { id: number }) => g.id === openGroup.id)).toMatchObject({ name: expect.any(String), members_count: 1 });
    expect(ids(pages)).toContain(theirPage.id);
    expect(ids(pages)).not.toContain(myPage.id);
    expect(pages.find((p: { id: number }) => p.id === theirPage.id)).toMatchObject({ name: expect.any(String), category: 'Collectif' });
  });

  it('lists the accounts of one’s cause once the newest list has moved past them', async () => {
    const cause = `Rare cause ${Date.now()}`;
    const [me, fellow] = [await aUser(t.api), await aUser(t.api)];
    for (let i = 0; i < 3; i++) await aUser(t.api);
    await t.api.put('users.php', { cause }, { token: me.token });
    await t.api.put('users.php', { cause }, { token: fellow.token });
    const res = await discover(me, '?type=users&per_page=2');
    expect(ids(res.body.data.users.same_cause)).toEqual([fellow.id]);
    expect(ids(res.body.data.users.new_users)).not.toContain(fellow.id);
    expect(res.body.data.groups).toEqual([]);
    expect(res.body.data.pages).toEqual([]);
  });

  it('narrows to one kind with type=, refuses an unknown type and an anonymous caller', async () => {
    const me = await aUser(t.api);
    await aPage(t.api, await aUser(t.api));
    const onlyPages = await discover(me, '?type=pages');
    expect(onlyPages.body.type).toBe('pages');
    expect(onlyPages.body.data.users).toEqual({ new_users: [], same_cause: [], random: [] });
    expect(onlyPages.body.data.groups).toEqual([]);
    expect(onlyPages.body.data.pages.length).toBeGreaterThan(0);
    expect((await discover(me, '?type=everything')).status).toBe(400);
    expect((await t.api.get('discover.php')).status).toBe(401);
  });

  it('no longer suggests a deleted account', async () => {
    const [me, leaving] = [await aUser(t.api), await aUser(t.api)];
    await t.database.db.updateTable('users').set({ deleted_at: '2026-01-01 00:00:00' }).where('id', '=', leaving.id).execute();
    const { users } = (await discover(me, '?type=users&per_page=50')).body.data;
    expect(ids([...users.new_users, ...users.same_cause, ...users.random])).not.toContain(leaving.id);
  });
});
