import { ManualClock } from '@plaza/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aGroupMessage, aMessageGroup, aUser, type TestUser } from '../support/mothers.js';
import { startTestServer, type TestServer } from '../support/server.js';

let t: TestServer;
const clock = new ManualClock('2026-05-01T09:00:00Z');
beforeAll(async () => {
  t = await startTestServer({ clock });
});
afterAll(() => t.close());

const G = 'message_groups.php';
const say = (who: TestUser, gid: number, body: Record<string, unknown>) =>
  t.api.post(`${G}?path=${gid}/messages`, { media: null, ...body }, { token: who.token });
const read = (who: TestUser, gid: number, extra = '') => t.api.get(`${G}?path=${gid}/messages&page=1${extra}`, { token: who.token });

describe('message_groups.php', () => {
  it('creates a group, lists it, shows details, and exchanges messages oldest first with replies and reactions', async () => {
    const admin = await aUser(t.api);
    const m = await aUser(t.api);
    const gid = (await aMessageGroup(t.api, admin, [m])).id;

    const details = await t.api.get(`${G}?path=${gid}`, { token: m.token });
    expect(details.status).toBe(200);
    expect(details.body.group).toMatchObject({ id: gid, name: 'Comrades', avatar: 'default.svg', auto_delete_time: 0, requests: [] });
    expect(details.body.group.members).toEqual([
      expect.objectContaining({ user_id: admin.id, username: admin.username, avatar: expect.any(String), role: 'admin' }),
      expect.objectContaining({ user_id: m.id, username: m.username, role: 'member' }),
    ]);

    const first = await say(admin, gid, { content: 'first' });
    expect(first.status).toBe(200);
    expect(first.body.data).toMatchObject({
      id: first.body.message_id,
      group_id: gid,
      username: admin.username,
      sender_username: admin.username,
      content: 'first',
      is_mine: true,
    });
    clock.advance(1000);
    const second = await say(m, gid, { content: 'second', parent_id: first.body.message_id });
    expect(second.status).toBe(200);
    expect(
      (await t.api.post(`${G}?path=messages/${first.body.message_id}/reactions`, { reaction_type: 'love' }, { token: m.token })).status,
    ).toBe(200);

    const msgs = await read(admin, gid);
    expect(msgs.status).toBe(200);
    expect(msgs.body.messages.map((x: { content: string }) => x.content)).toEqual(['first', 'second']);
    expect(msgs.body.messages[0]).toMatchObject({
      id: first.body.message_id,
      username: admin.username,
      is_mine: true,
      reactions_summary: { love: 1 },
      user_reaction: null,
      edited_at: null,
    });
    expect(msgs.body.messages[1]).toMatchObject({
      is_mine: false,
      parent_id: first.body.message_id,
      parent_content: 'first',
      parent_username: admin.username,
      created_at: '2026-05-01 09:00:01',
    });

    const list = await t.api.get(`${G}?page=1`, { token: m.token });
    expect(list.status).toBe(200);
    expect(list.body.groups).toEqual([
      expect.objectContaining({ id: gid, name: 'Comrades', avatar: 'default.svg', last_message: 'second', members_count: 2 }),
    ]);

    const pushes = t.push.sent.filter((s) => s.userId === m.id && s.message.data.type === 'group_message');
    expect(pushes[0].message.data).toEqual({ type: 'group_message', group_id: String(gid), message_preview: 'first' });
    // The sender is not pushed their own message.
    expect(t.push.sent.some((s) => s.userId === m.id && s.message.data.message_preview === 'second')).toBe(false);
  });

  it('a non-member cannot read, send, react, edit or see details (403) and nothing changes', async () => {
    const admin = await aUser(t.api);
    const outsider = await aUser(t.api);
    const gid = (await aMessageGroup(t.api, admin, [])).id;
    const mid = (await aGroupMessage(t.api, admin, gid, { content: 'members only' })).id;
    expect((await read(outsider, gid)).status).toBe(403);
    expect((await t.api.get(`${G}?path=${gid}`, { token: outsider.token })).status).toBe(403);
    expect((await say(outsider, gid, { content: 'intrusion' })).status).toBe(403);
    expect((await t.api.post(`${G}?path=messages/${mid}/reactions`, { reaction_type: 'like' }, { token: outsider.token })).status).toBe(
      403,
    );
    expect((await t.api.put(`${G}?path=messages/${mid}`, { content: 'defaced' }, { token: outsider.token })).status).toBe(403);
    expect((await t.api.delete(`${G}?path=messages/${mid}`, undefined, { token: outsider.token })).status).toBe(403);
    expect((await t.api.put(`${G}?path=${gid}`, { name: 'Taken' }, { token: outsider.token })).status).toBe(403);
    expect((await t.api.post(`${G}?path=${gid}/members`, { user_id: outsider.id }, { token: outsider.token })).status).toBe(403);
    expect((await t.api.get(`${G}?path=${gid}/typing`, { token: outsider.token })).status).toBe(403);
    const msgs = await read(admin, gid);
    expect(msgs.body.messages).toEqual([
      expect.objectContaining({ id: mid, content: 'members only', reactions_summary: {}, edited_at: null }),
    ]);
    expect((await t.api.get(`${G}?path=${gid}`, { token: admin.token })).body.group).toMatchObject({
      name: 'Comrades',
      members: [expect.objectContaining({ user_id: admin.id })],
    });
    expect((await t.api.get(`${G}`, { token: outsider.token })).body.groups).toEqual([]);
    expect((await read(admin, 999999)).status).toBe(404);
  });

  it('members edit and delete only their own messages', async () => {
    const admin = await aUser(t.api);
    const m = await aUser(t.api);
    const gid = (await aMessageGroup(t.api, admin, [m])).id;
    const mid = (await aGroupMessage(t.api, admin, gid, { content: 'mine' })).id;
    expect((await t.api.put(`${G}?path=messages/${mid}`, { content: 'yours now' }, { token: m.token })).status).toBe(403);
    expect((await t.api.delete(`${G}?path=messages/${mid}`, undefined, { token: m.token })).status).toBe(403);
    expect((await t.api.put(`${G}?path=messages/${mid}`, { content: 'edited' }, { token: admin.token })).status).toBe(200);
    let msgs = (await read(m, gid)).body.messages;
    expect(msgs[0].content).toBe('edited');
    expect(typeof msgs[0].edited_at).toBe('string');
    expect((await t.api.post(`${G}?path=messages/${mid}/reactions`, { reaction_type: 'like' }, { token: m.token })).status).toBe(200);
    expect((await t.api.post(`${G}?path=messages/${mid}/reactions`, { reaction_type: 'wow' }, { token: m.token })).status).toBe(200);
    expect((await read(m, gid)).body.messages[0]).toMatchObject({ reactions_summary: { wow: 1 }, user_reaction: 'wow' });
    expect((await t.api.delete(`${G}?path=messages/${mid}/reactions`, undefined, { token: m.token })).status).toBe(200);
    expect((await read(m, gid)).body.messages[0]).toMatchObject({ reactions_summary: {}, user_reaction: null });
    expect((await t.api.delete(`${G}?path=messages/${mid}`, undefined, { token: admin.token })).status).toBe(200);
    msgs = (await read(m, gid)).body.messages;
    expect(msgs).toEqual([]);
  });

  it('admins add and remove members and update; member invitations become requests admins approve or reject', async () => {
    const admin = await aUser(t.api);
    const m = await aUser(t.api);
    const x = await aUser(t.api);
    const y = await aUser(t.api);
    const gid = (await aMessageGroup(t.api, admin, [m])).id;
    const added = await t.api.post(`${G}?path=${gid}/members`, { user_id: x.id }, { token: admin.token });
    expect(added.status).toBe(200);
    expect((await read(x, gid)).status).toBe(200);

    // A plain member cannot remove or update.
    expect((await t.api.delete(`${G}?path=${gid}/members/${x.id}`, undefined, { token: m.token })).status).toBe(403);
    expect((await t.api.put(`${G}?path=${gid}`, { name: 'Mine' }, { token: m.token })).status).toBe(403);

    const invited = await t.api.post(`${G}?path=${gid}/members`, { user_id: y.id }, { token: m.token });
    expect(invited.status).toBe(200);
    expect((await read(y, gid)).status).toBe(403);
    const requests = (await t.api.get(`${G}?path=${gid}`, { token: admin.token })).body.group.requests;
    expect(requests).toEqual([
      expect.objectContaining({ request_id: expect.any(Number), user_id: y.id, username: y.username, avatar: expect.any(String) }),
    ]);
    const rid = requests[0].request_id;
    expect((await t.api.post(`${G}?path=${gid}/requests/${rid}/approve`, undefined, { token: m.token })).status).toBe(403);
    expect((await t.api.post(`${G}?path=${gid}/requests/${rid}/approve`, undefined, { token: admin.token })).status).toBe(200);
    expect((await read(y, gid)).status).toBe(200);
    expect((await t.api.get(`${G}?path=${gid}`, { token: admin.token })).body.group.requests).toEqual([]);

    const z = await aUser(t.api);
    await t.api.post(`${G}?path=${gid}/members`, { user_id: z.id }, { token: m.token });
    const rid2 = (await t.api.get(`${G}?path=${gid}`, { token: admin.token })).body.group.requests[0].request_id;
    expect((await t.api.post(`${G}?path=${gid}/requests/${rid2}/reject`, undefined, { token: admin.token })).status).toBe(200);
    expect((await read(z, gid)).status).toBe(403);

    expect((await t.api.delete(`${G}?path=${gid}/members/${x.id}`, undefined, { token: admin.token })).status).toBe(200);
    expect((await read(x, gid)).status).toBe(403);

    const updated = await t.api.put(`${G}?path=${gid}`, { name: 'Renamed', auto_delete_time: 5 }, { token: admin.token });
    expect(updated.status).toBe(200);
    expect((await t.api.get(`${G}?path=${gid}`, { token: m.token })).body.group).toMatchObject({ name: 'Renamed', auto_delete_time: 5 });
    expect((await t.api.put(`${G}?path=${gid}`, { auto_delete_time: 3 }, { token: admin.token })).status).toBe(400);
  });

  it('the last admin leaving promotes the oldest member; the last member leaving closes the group', async () => {
    const admin = await aUser(t.api);
    const older = await aUser(t.api);
    const gid = (await aMessageGroup(t.api, admin, [older])).id;
    clock.advance(1000);
    const newer = await aUser(t.api);
    await t.api.post(`${G}?path=${gid}/members`, { user_id: newer.id }, { token: admin.token });
    expect((await t.api.delete(`${G}?path=${gid}`, undefined, { token: admin.token })).status).toBe(200);
    const members = (await t.api.get(`${G}?path=${gid}`, { token: older.token })).body.group.members;
    expect(members).toEqual([
      expect.objectContaining({ user_id: older.id, role: 'admin' }),
      expect.objectContaining({ user_id: newer.id, role: 'member' }),
    ]);
    expect((await read(admin, gid)).status).toBe(403);
    await t.api.delete(`${G}?path=${gid}`, undefined, { token: older.token });
    await t.api.delete(`${G}?path=${gid}`, undefined, { token: newer.token });
    expect((await read(newer, gid)).status).toBe(404);
  });

  it('typing expires after 10 seconds; auto-delete removes expired messages', async () => {
    const admin = await aUser(t.api);
    const m = await aUser(t.api);
    const gid = (await aMessageGroup(t.api, admin, [m])).id;
    expect((await t.api.post(`${G}?path=${gid}/typing`, { is_typing: true }, { token: m.token })).status).toBe(200);
    expect((await t.api.get(`${G}?path=${gid}/typing`, { token: admin.token })).body.typing_users).toEqual([
      { user_id: m.id, username: m.username },
    ]);
    expect((await t.api.get(`${G}?path=${gid}/typing`, { token: m.token })).body.typing_users).toEqual([]);
    clock.advance(10_001);
    expect((await t.api.get(`${G}?path=${gid}/typing`, { token: admin.token })).body.typing_users).toEqual([]);

    await t.api.put(`${G}?path=${gid}`, { auto_delete_time: 1 }, { token: admin.token });
    await aGroupMessage(t.api, admin, gid, { content: 'soon gone' });
    clock.advance(61_000);
    expect((await read(m, gid)).body.messages).toEqual([]);
    await t.runJob('auto-delete-messages');
    expect(await t.database.db.selectFrom('group_messages').select('id').where('group_id', '=', gid).execute()).toEqual([]);
  });

  it('rejects bad input with 400', async () => {
    const admin = await aUser(t.api);
    expect((await t.api.post(G, { name: '' }, { token: admin.token })).status).toBe(400);
    expect((await t.api.post(G, { name: 'x', member_ids: [999999] }, { token: admin.token })).status).toBe(400);
    expect((await t.api.post(G, { name: 'x', member_ids: 'nope' }, { token: admin.token })).status).toBe(400);
    const gid = (await aMessageGroup(t.api, admin, [])).id;
    expect((await say(admin, gid, { content: '' })).status).toBe(400);
    expect((await t.api.get(`${G}?path=${gid}/nonsense`, { token: admin.token })).status).toBe(404);
  });
});
