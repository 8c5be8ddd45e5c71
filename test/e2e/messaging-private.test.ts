import { ManualClock } from '@plaza/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aMessage, aUser, type TestUser } from '../support/mothers.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { placeUploaded } from '../support/uploads.js';

let t: TestServer;
const clock = new ManualClock('2026-04-01T08:00:00Z');
beforeAll(async () => {
  t = await startTestServer({ clock });
});
afterAll(() => t.close());

const send = (from: TestUser, to: TestUser, body: Record<string, unknown>) =>
  t.api.post('messages.php', { user_id: to.id, media: null, ...body }, { token: from.token });
const thread = (me: TestUser, other: TestUser, extra = '') =>
  t.api.get(`messages.php?user_id=${other.id}&page=1${extra}`, { token: me.token });
const runJob = (name: string) => t.runJob(name);

describe('messages.php', () => {
  it('sends, lists the thread newest first with the §18.2 keys, replies, and marks read on reading', async () => {
    const a = await aUser(t.api);
    const b = await aUser(t.api);
    const first = await send(a, b, { content: 'hello' });
    expect(first.status).toBe(200);
    expect(typeof first.body.message_id).toBe('number');
    // The sent message comes back presented, authored by the sender.
    expect(first.body.data).toMatchObject({
      id: first.body.message_id,
      sender_id: a.id,
      receiver_id: b.id,
      sender_username: a.username,
      content: 'hello',
      is_mine: true,
      is_read: false,
    });
    clock.advance(1000);
    // The Android quick reply names the recipient recipient_id.
    const reply = await t.api.post(
      'messages.php',
      { recipient_id: a.id, content: 'hi back', parent_id: first.body.message_id },
      { token: b.token },
    );
    expect(reply.status).toBe(200);

    const forA = await thread(a, b);
    expect(forA.status).toBe(200);
    const items = forA.body.data.data;
    expect(items.map((m: { content: string }) => m.content)).toEqual(['hi back', 'hello']);
    expect(forA.body.data.meta).toEqual({ current_page: 1, per_page: 20, total: 2, total_pages: 1 });
    expect(items[0]).toMatchObject({
      id: reply.body.message_id,
      sender_id: b.id,
      receiver_id: a.id,
      sender_username: b.username,
      sender_avatar: expect.any(String),
      content: 'hi back',
      media: null,
      media_type: null,
      is_mine: false,
      is_read: false,
      created_at: '2026-04-01 08:00:01',
      edited_at: null,
      parent_id: first.body.message_id,
      parent_content: 'hello',
      parent_sender_username: a.username,
      reactions_summary: {},
      user_reaction: null,
    });
    expect(items[1].is_mine).toBe(true);
    expect(forA.body.conversation).toMatchObject({ user_id: b.id, username: b.username, auto_delete_time: 0 });

    // A read it; B now sees its message as read.
    const forB = await thread(b, a);
    expect(forB.body.data.data[0]).toMatchObject({ is_mine: true, is_read: true });

    const pushes = t.push.sent.filter((s) => s.userId === b.id);
    expect(pushes.at(-1)!.message.data).toEqual({ type: 'message', sender_id: String(a.id), message_preview: 'hello' });
  });

  it('accepts many concurrent sends in both directions of one conversation', async () => {
    const a = await aUser(t.api);
    const b = await aUser(t.api);
    const results = await Promise.all(
      Array.from({ length: 24 }, (_, i) => (i % 2 ? send(a, b, { content: `a${i}` }) : send(b, a, { content: `b${i}` }))),
    );
    expect(results.map((r) => r.status)).toEqual(Array(24).fill(200));
    const all = await t.api.get(`messages.php?user_id=${b.id}&per_page=50`, { token: a.token });
    expect(all.body.data.data).toHaveLength(24);
    const newest = Math.max(...results.map((r) => r.body.message_id));
    const list = await t.api.get('messages.php', { token: b.token });
    const convo = list.body.data.data.find((c: { user_id: number }) => c.user_id === a.id);
    expect(convo.last_message).toBe(all.body.data.data.find((m: { id: number }) => m.id === newest).content);
  });

  it('lists conversations most recent first with last_message and unread_count, and searches', async () => {
    const me = await aUser(t.api);
    const p1 = await aUser(t.api);
    const p2 = await aUser(t.api);
    await aMessage(t.api, p1, me, { content: 'one' });
    clock.advance(1000);
    await aMessage(t.api, p2, me, { content: 'two' });
    clock.advance(1000);
    await aMessage(t.api, p2, me, { content: 'three' });
    const list = await t.api.get('messages.php?page=1', { token: me.token });
    expect(list.status).toBe(200);
    expect(list.body.data.data).toEqual([
      expect.objectContaining({ user_id: p2.id, username: p2.username, last_message: 'three', unread_count: 2 }),
      expect.objectContaining({ user_id: p1.id, last_message: 'one', unread_count: 1 }),
    ]);
    await thread(me, p2);
    const after = await t.api.get('messages.php', { token: me.token });
    expect(after.body.data.data[0].unread_count).toBe(0);
    const found = await t.api.get(`messages.php?q=${encodeURIComponent(p1.username)}`, { token: me.token });
    expect(found.body.data.data.map((c: { user_id: number }) => c.user_id)).toEqual([p1.id]);
    const inThread = await thread(me, p2, '&q=thr');
    expect(inThread.body.data.data.map((m: { content: string }) => m.content)).toEqual(['three']);
  });

  it('edits and deletes only one’s own messages', async () => {
    const a = await aUser(t.api);
    const b = await aUser(t.api);
    const { id } = await aMessage(t.api, a, b, { content: 'original' });
    expect((await t.api.put(`messages.php?id=${id}`, { content: 'hacked' }, { token: b.token })).status).toBe(403);
    expect((await t.api.delete(`messages.php?id=${id}`, undefined, { token: b.token })).status).toBe(403);
    const stranger = await aUser(t.api);
    expect((await t.api.put(`messages.php?id=${id}`, { content: 'hacked' }, { token: stranger.token })).status).toBe(403);
    expect((await thread(b, a)).body.data.data[0]).toMatchObject({ content: 'original', edited_at: null });

    const edited = await t.api.put(`messages.php?id=${id}`, { content: 'fixed' }, { token: a.token });
    expect(edited.status).toBe(200);
    const seen = (await thread(b, a)).body.data.data[0];
    expect(seen.content).toBe('fixed');
    expect(typeof seen.edited_at).toBe('string');

    expect((await t.api.delete(`messages.php?id=${id}`, undefined, { token: a.token })).status).toBe(200);
    expect((await thread(b, a)).body.data.data).toEqual([]);
    expect((await t.api.delete(`messages.php?id=${id}`, undefined, { token: a.token })).status).toBe(404);
  });

  it('reacts (replacing one’s reaction) and unreacts; strangers cannot react', async () => {
    const a = await aUser(t.api);
    const b = await aUser(t.api);
    const id = (await aMessage(t.api, a, b, { content: 'react to me' })).id;
    expect((await t.api.post('messages.php?action=react', { message_id: id, reaction_type: 'like' }, { token: b.token })).status).toBe(200);
    const loved = await t.api.post('messages.php?action=react', { message_id: id, reaction_type: 'love' }, { token: b.token });
    expect(loved.status).toBe(200);
    expect(loved.body).toMatchObject({ message_id: id, reactions_summary: { love: 1 }, user_reaction: 'love' });
    expect((await t.api.post('messages.php?action=react', { message_id: id, reaction_type: 'like' }, { token: a.token })).status).toBe(200);
    const stranger = await aUser(t.api);
    expect(
      (await t.api.post('messages.php?action=react', { message_id: id, reaction_type: 'like' }, { token: stranger.token })).status,
    ).toBe(403);
    expect((await t.api.post('messages.php?action=react', { message_id: id, reaction_type: 'meh' }, { token: b.token })).status).toBe(400);
    let item = (await thread(b, a)).body.data.data[0];
    expect(item.reactions_summary).toEqual({ like: 1, love: 1 });
    expect(item.user_reaction).toBe('love');
    expect((await t.api.delete(`messages.php?action=react&message_id=${id}`, undefined, { token: b.token })).status).toBe(200);
    item = (await thread(b, a)).body.data.data[0];
    expect(item.reactions_summary).toEqual({ like: 1 });
    expect(item.user_reaction).toBeNull();
  });

  it('deleting a conversation hides it for one side only', async () => {
    const a = await aUser(t.api);
    const b = await aUser(t.api);
    await aMessage(t.api, a, b, { content: 'keep me' });
    await aMessage(t.api, b, a, { content: 'me too' });
    expect((await t.api.delete(`messages.php?user_id=${b.id}`, undefined, { token: a.token })).status).toBe(200);
    expect((await thread(a, b)).body.data.data).toEqual([]);
    expect((await t.api.get('messages.php', { token: a.token })).body.data.data).toEqual([]);
    expect((await thread(b, a)).body.data.data.map((m: { content: string }) => m.content)).toEqual(['me too', 'keep me']);
    expect((await t.api.get('messages.php', { token: b.token })).body.data.data.map((c: { user_id: number }) => c.user_id)).toEqual([a.id]);
    // New messages show up again for the side that deleted.
    await aMessage(t.api, b, a, { content: 'after' });
    expect((await thread(a, b)).body.data.data.map((m: { content: string }) => m.content)).toEqual(['after']);
  });

  it('validates input: recipient, empty message, foreign parent', async () => {
    const a = await aUser(t.api);
    const b = await aUser(t.api);
    const c = await aUser(t.api);
    expect((await t.api.post('messages.php', { content: 'x' }, { token: a.token })).status).toBe(400);
    expect((await send(a, b, { content: '' })).status).toBe(400);
    expect((await send(a, { ...b, id: 999999 }, { content: 'x' })).status).toBe(404);
    const foreign = (await aMessage(t.api, b, c, { content: 'not yours' })).id;
    expect((await send(a, b, { content: 'reply', parent_id: foreign })).status).toBe(400);
    // Stored as upload.php would have, as a's upload (references must name the sender's uploads).
    await placeUploaded(t, 'messages_1.jpg', a);
    const media = await send(a, b, { content: '', media: 'messages_1.jpg', media_type: 'image' });
    expect(media.status).toBe(200);
    expect((await thread(b, a)).body.data.data[0]).toMatchObject({ content: '', media: 'messages_1.jpg', media_type: 'image' });
  });

  it('auto-deletes messages after the conversation’s auto_delete_time', async () => {
    const a = await aUser(t.api);
    const b = await aUser(t.api);
    const set = await t.api.put(`messages.php?user_id=${b.id}`, { auto_delete_time: 1 }, { token: a.token });
    expect(set.status).toBe(200);
    expect(set.body.conversation).toMatchObject({ user_id: b.id, auto_delete_time: 1 });
    expect((await t.api.put(`messages.php?user_id=${b.id}`, { auto_delete_time: 7 }, { token: a.token })).status).toBe(400);
    // The setting is shared by both sides.
    expect((await t.api.get(`messages.php?user_id=${a.id}&page=1&per_page=1`, { token: b.token })).body.conversation.auto_delete_time).toBe(
      1,
    );
    await aMessage(t.api, a, b, { content: 'ephemeral' });
    clock.advance(30_000);
    expect((await thread(b, a)).body.data.data).toHaveLength(1);
    clock.advance(31_000);
    expect((await thread(b, a)).body.data.data).toEqual([]);
    await runJob('auto-delete-messages');
    const rows = await t.database.db.selectFrom('private_messages').select('id').where('sender_id', '=', a.id).execute();
    expect(rows).toEqual([]);
    expect((await t.api.get('messages.php', { token: b.token })).body.data.data).toEqual([]);
  });

  it('typing signals expire after 10 seconds', async () => {
    const a = await aUser(t.api);
    const b = await aUser(t.api);
    expect((await t.api.post('messages.php?action=typing', { recipient_id: b.id, is_typing: true }, { token: a.token })).status).toBe(200);
    let seen = await t.api.get(`messages.php?typing_user_id=${a.id}`, { token: b.token });
    expect(seen.status).toBe(200);
    expect(seen.body.typing_users).toEqual([{ user_id: a.id, username: a.username }]);
    // Only the addressee sees it.
    expect((await t.api.get(`messages.php?typing_user_id=${a.id}`, { token: (await aUser(t.api)).token })).body.typing_users).toEqual([]);
    clock.advance(11_000);
    seen = await t.api.get(`messages.php?typing_user_id=${a.id}`, { token: b.token });
    expect(seen.body.typing_users).toEqual([]);
    await t.api.post('messages.php?action=typing', { recipient_id: b.id, is_typing: true }, { token: a.token });
    await t.api.post('messages.php?action=typing', { recipient_id: b.id, is_typing: false }, { token: a.token });
    expect((await t.api.get(`messages.php?typing_user_id=${a.id}`, { token: b.token })).body.typing_users).toEqual([]);
  });
});
