import { describe, expect, it } from 'vitest';
import type { UserRepository } from '../../accounts/ports.js';
import type { MessageGroupRepository, PrivateMessageRepository, TypingRepository } from '../ports.js';
import type { FollowRepository, FriendRequestRepository } from '../../social/ports.js';
import { aNewUser } from '../../accounts/testing/mothers.js';

const page = (p = 1, perPage = 20) => ({ page: p, perPage });

export interface SocialMessagingPorts {
  users: UserRepository;
  follows: FollowRepository;
  friends: FriendRequestRepository;
  messages: PrivateMessageRepository;
  groups: MessageGroupRepository;
  typing: TypingRepository;
}

export function socialMessagingContract(name: string, make: () => Promise<SocialMessagingPorts>) {
  const twoUsers = async (users: UserRepository) => [
    await users.create(aNewUser()),
    await users.create(aNewUser()),
    await users.create(aNewUser()),
  ];

  describe(`${name}: follow lists`, () => {
    it('pages followers and followed accounts newest first', async () => {
      const { users, follows } = await make();
      const [a, b, c] = await twoUsers(users);
      await follows.follow(a.id, c.id, '2026-01-01 00:00:00');
      await follows.follow(b.id, c.id, '2026-01-01 00:00:05');
      await follows.follow(c.id, a.id, '2026-01-01 00:00:09');
      expect(await follows.followerIds(c.id, page())).toEqual({ ids: [b.id, a.id], total: 2 });
      expect(await follows.followerIds(c.id, page(2, 1))).toEqual({ ids: [a.id], total: 2 });
      expect(await follows.followingIds(c.id, page())).toEqual({ ids: [a.id], total: 1 });
    });
  });

  describe(`${name}: friend requests`, () => {
    it('moves pending → accepted, lists friends from both sides, and removes the friendship', async () => {
      const { users, friends } = await make();
      const [a, b, c] = await twoUsers(users);
      const r = await friends.create(a.id, b.id, '2026-01-01 00:00:00');
      await friends.create(c.id, b.id, '2026-01-01 00:00:01');
      expect((await friends.findBetween(a.id, b.id))?.status).toBe('pending');
      expect((await friends.pendingReceived(b.id, page())).items.map((x) => x.sender_id)).toEqual([c.id, a.id]);
      await friends.setStatus(r.id, 'accepted', '2026-01-01 00:01:00');
      expect(await friends.friendIds(a.id, page())).toEqual({ ids: [b.id], total: 1 });
      expect(await friends.friendIds(b.id, page())).toEqual({ ids: [a.id], total: 1 });
      expect((await friends.pendingReceived(b.id, page())).total).toBe(1);
      expect(await friends.removeFriendship(b.id, a.id)).toBe(true);
      expect(await friends.removeFriendship(b.id, a.id)).toBe(false);
      expect((await friends.friendIds(a.id, page())).total).toBe(0);
    });

    it('finds a request by id, and re-opens a rejected one as a new pending request', async () => {
      const { users, friends } = await make();
      const [a, b] = await twoUsers(users);
      const r = await friends.create(a.id, b.id, '2026-01-01 00:00:00');
      expect(r).toEqual({
        id: r.id,
        sender_id: a.id,
        receiver_id: b.id,
        status: 'pending',
        created_at: '2026-01-01 00:00:00',
        responded_at: null,
      });
      expect(await friends.findById(r.id)).toEqual(r);
      expect(await friends.findById(999_999)).toBeNull();
      await friends.setStatus(r.id, 'rejected', '2026-01-01 00:01:00');
      expect(await friends.findById(r.id)).toEqual({ ...r, status: 'rejected', responded_at: '2026-01-01 00:01:00' });
      expect((await friends.pendingReceived(b.id, page())).total).toBe(0);
      await friends.setStatus(r.id, 'pending', '2026-01-01 00:02:00');
      expect(await friends.findById(r.id)).toEqual({ ...r, created_at: '2026-01-01 00:02:00', responded_at: null });
      expect(await friends.findBetween(a.id, b.id)).toEqual({ ...r, created_at: '2026-01-01 00:02:00' });
      expect(await friends.findBetween(b.id, a.id)).toBeNull();
    });
  });

  describe(`${name}: private messages`, () => {
    it('keeps threads newest first, per-side clearing, unread counts, reactions and expiry', async () => {
      const { users, messages } = await make();
      const [a, b] = await twoUsers(users);
      const base = { media: null, media_type: null, parent_id: null, expires_at: null };
      const m1 = await messages.create({ ...base, sender_id: a.id, receiver_id: b.id, content: 'one', created_at: '2026-01-01 00:00:00' });
      const m2 = await messages.create({ ...base, sender_id: b.id, receiver_id: a.id, content: 'two', created_at: '2026-01-01 00:00:01' });
      const now = '2026-01-01 00:00:02';
      expect((await messages.thread(a.id, b.id, now, page())).items.map((m) => m.id)).toEqual([m2.id, m1.id]);
      // The total holds on every page, one past the end included (where no row carries it).
      expect(await messages.thread(a.id, b.id, now, page(2, 1))).toEqual({ items: [m1], total: 2 });
      expect(await messages.thread(a.id, b.id, now, page(3, 1))).toEqual({ items: [], total: 2 });
      const convs = await messages.conversations(a.id, page());
      expect(convs.items).toEqual([
        expect.objectContaining({ peer_id: b.id, unread_count: 1, last_message: expect.objectContaining({ id: m2.id }) }),
      ]);
      await messages.markRead(a.id, b.id);
      expect((await messages.conversations(a.id, page())).items[0].unread_count).toBe(0);

      await messages.react(m1.id, b.id, 'like', now);
      await messages.react(m1.id, b.id, 'love', now);
      await messages.react(m1.id, a.id, 'love', now);
      const r = await messages.reactions([m1.id, m2.id], b.id);
      expect(r.counts.get(m1.id)).toEqual({ love: 2 });
      expect(r.mine.get(m1.id)).toBe('love');
      expect(r.counts.has(m2.id)).toBe(false);
      expect(await messages.unreact(m1.id, b.id)).toBe(true);
      expect(await messages.unreact(m1.id, b.id)).toBe(false);

      await messages.clear(a.id, b.id);
      expect((await messages.thread(a.id, b.id, now, page())).total).toBe(0);
      expect((await messages.conversations(a.id, page())).total).toBe(0);
      expect((await messages.thread(b.id, a.id, now, page())).total).toBe(2);
      expect(await messages.isVisibleTo(m1, a.id, now)).toBe(false);
      expect(await messages.isVisibleTo(m1, b.id, now)).toBe(true);

      await messages.setAutoDeleteMinutes(a.id, b.id, 5, now);
      expect(await messages.autoDeleteMinutes(b.id, a.id)).toBe(5);
      // One read for a thread or a send: both accounts, the side's own marker, the shared setting.
      expect(await messages.conversationWith(a.id, b.id)).toEqual({
        peer: await users.findById(b.id),
        own: await users.findById(a.id),
        clearedBeforeId: m2.id,
        autoDeleteMinutes: 5,
      });
      expect(await messages.conversationWith(b.id, a.id)).toMatchObject({ clearedBeforeId: 0, autoDeleteMinutes: 5 });
      expect((await messages.thread(a.id, b.id, now, page(), undefined, 0)).total).toBe(2);
      expect(await messages.conversationWith(a.id, 999_999)).toBeNull();
      const [c] = await twoUsers(users);
      expect(await messages.conversationWith(c.id, a.id)).toMatchObject({
        peer: { id: a.id },
        own: { id: c.id },
        clearedBeforeId: 0,
        autoDeleteMinutes: 0,
      });
      const m3 = await messages.create({
        ...base,
        sender_id: a.id,
        receiver_id: b.id,
        content: 'brief',
        created_at: now,
        expires_at: '2026-01-01 00:05:02',
      });
      expect((await messages.thread(b.id, a.id, '2026-01-01 00:05:01', page())).items[0].id).toBe(m3.id);
      expect((await messages.thread(b.id, a.id, '2026-01-01 00:05:02', page())).items[0].id).toBe(m2.id);
      expect(await messages.deleteExpired('2026-01-01 00:05:02')).toBe(1);
      expect(await messages.findById(m3.id)).toBeNull();
      expect((await messages.conversations(b.id, page())).items[0].last_message.id).toBe(m2.id);

      await messages.delete(m2.id);
      expect((await messages.thread(b.id, a.id, now, page())).items.map((m) => m.id)).toEqual([m1.id]);
    });

    it('finds messages by ids and edits their content', async () => {
      const { users, messages } = await make();
      const [a, b] = await twoUsers(users);
      const base = { media: null, media_type: null, parent_id: null, expires_at: null };
      const m1 = await messages.create({
        ...base,
        sender_id: a.id,
        receiver_id: b.id,
        content: 'first',
        created_at: '2026-01-01 00:00:00',
      });
      const m2 = await messages.create({
        ...base,
        sender_id: b.id,
        receiver_id: a.id,
        content: 'second',
        media: 'media_x.jpg',
        media_type: 'image',
        parent_id: m1.id,
        created_at: '2026-01-01 00:00:01',
      });
      expect(await messages.findByIds([])).toEqual([]);
      expect((await messages.findByIds([m2.id, 999_999, m1.id])).sort((x, y) => x.id - y.id)).toEqual([
        {
          id: m1.id,
          sender_id: a.id,
          receiver_id: b.id,
          content: 'first',
          media: null,
          media_type: null,
          parent_id: null,
          is_read: false,
          created_at: '2026-01-01 00:00:00',
          edited_at: null,
          expires_at: null,
        },
        {
          id: m2.id,
          sender_id: b.id,
          receiver_id: a.id,
          content: 'second',
          media: 'media_x.jpg',
          media_type: 'image',
          parent_id: m1.id,
          is_read: false,
          created_at: '2026-01-01 00:00:01',
          edited_at: null,
          expires_at: null,
        },
      ]);

      await messages.updateContent(m1.id, 'first, edited', '2026-01-01 00:00:05');
      expect(await messages.findById(m1.id)).toMatchObject({
        content: 'first, edited',
        edited_at: '2026-01-01 00:00:05',
        created_at: '2026-01-01 00:00:00',
        sender_id: a.id,
      });
      expect(await messages.findById(m2.id)).toMatchObject({ content: 'second', edited_at: null });
      expect((await messages.thread(b.id, a.id, '2026-01-01 00:01:00', page())).items.map((m) => m.content)).toEqual([
        'second',
        'first, edited',
      ]);
    });

    it('filters a thread by content and the conversations by the peer’s username', async () => {
      const { users, messages } = await make();
      const [a, b, c] = await twoUsers(users);
      const base = { media: null, media_type: null, parent_id: null, expires_at: null };
      await messages.create({ ...base, sender_id: a.id, receiver_id: b.id, content: 'Lunch at noon?', created_at: '2026-01-01 00:00:00' });
      await messages.create({ ...base, sender_id: b.id, receiver_id: a.id, content: 'yes, lunch', created_at: '2026-01-01 00:00:01' });
      await messages.create({ ...base, sender_id: c.id, receiver_id: a.id, content: 'dinner?', created_at: '2026-01-01 00:00:02' });
      const now = '2026-01-01 00:01:00';
      expect(await messages.thread(a.id, b.id, now, page(), 'LUNCH')).toMatchObject({
        items: [{ content: 'yes, lunch' }, { content: 'Lunch at noon?' }],
        total: 2,
      });
      expect((await messages.thread(a.id, b.id, now, page(), 'noon')).total).toBe(1);
      expect((await messages.thread(a.id, c.id, now, page(), 'lunch')).total).toBe(0);
      expect((await messages.conversations(a.id, page())).items.map((x) => x.peer_id)).toEqual([c.id, b.id]);
      expect(await messages.conversations(a.id, page(), b.username.toUpperCase())).toMatchObject({ items: [{ peer_id: b.id }], total: 1 });
      expect(await messages.conversations(a.id, page(), 'no-such-name')).toEqual({ items: [], total: 0 });
    });
  });

  describe(`${name}: message groups`, () => {
    it('tracks members, requests and messages (pages counted from the newest, oldest first)', async () => {
      const { users, groups } = await make();
      const [a, b, c] = await twoUsers(users);
      const gid = await groups.create({ name: 'G', avatar: null, creator_id: a.id, created_at: '2026-01-01 00:00:00' }, [
        { user_id: a.id, role: 'admin' },
        { user_id: b.id, role: 'member' },
      ]);
      expect((await groups.members(gid)).map((m) => [m.user_id, m.role])).toEqual([
        [a.id, 'admin'],
        [b.id, 'member'],
      ]);
      expect(await groups.addMember(gid, b.id, 'member', '2026-01-01 00:00:01')).toBe(false);
      const req = await groups.createRequest(gid, c.id, b.id, '2026-01-01 00:00:02');
      expect((await groups.createRequest(gid, c.id, b.id, '2026-01-01 00:00:03')).id).toBe(req.id);
      expect(await groups.requests(gid)).toEqual([expect.objectContaining({ id: req.id, user_id: c.id, requested_by: b.id })]);
      await groups.deleteRequest(req.id);
      expect(await groups.findRequest(req.id)).toBeNull();

      const base = { group_id: gid, media: null, media_type: null, parent_id: null, expires_at: null };
      const ids: number[] = [];
      for (let i = 0; i < 3; i++)
        ids.push((await groups.createMessage({ ...base, sender_id: a.id, content: `m${i}`, created_at: `2026-01-01 00:01:0${i}` })).id);
      expect((await groups.messages(gid, '2026-01-02 00:00:00', page(1, 2))).items.map((m) => m.id)).toEqual([ids[1], ids[2]]);
      expect((await groups.messages(gid, '2026-01-02 00:00:00', page(2, 2))).items.map((m) => m.id)).toEqual([ids[0]]);
      expect((await groups.groupsOf(b.id, page())).items[0]).toMatchObject({ id: gid, last_message_id: ids[2] });
      expect((await groups.groupsOf(c.id, page())).total).toBe(0);
      expect((await groups.memberCounts([gid])).get(gid)).toBe(2);
      await groups.deleteMessage(ids[2]);
      expect((await groups.findById(gid))?.last_message_id).toBe(ids[1]);
      await groups.setEveryoneRole(gid, 'admin');
      expect((await groups.membership(gid, b.id))?.role).toBe('admin');
      expect(await groups.removeMember(gid, b.id)).toBe(true);
      expect(await groups.membership(gid, b.id)).toBeNull();
      await groups.delete(gid);
      expect(await groups.findById(gid)).toBeNull();
    });

    it('updates a group in part, filters groups by name, and sets one member’s role', async () => {
      const { users, groups } = await make();
      const [a, b, c] = await twoUsers(users);
      const gid = await groups.create({ name: 'Before', avatar: null, creator_id: a.id, created_at: '2026-01-01 00:00:00' }, [
        { user_id: a.id, role: 'admin' },
        { user_id: b.id, role: 'member' },
        { user_id: c.id, role: 'member' },
      ]);
      await groups.update(gid, { name: 'After', avatar: 'group_avatar.jpg' });
      expect(await groups.findById(gid)).toMatchObject({
        id: gid,
        name: 'After',
        avatar: 'group_avatar.jpg',
        auto_delete_time: 0,
        creator_id: a.id,
      });
      await groups.update(gid, { auto_delete_time: 60 });
      expect(await groups.findById(gid)).toMatchObject({ name: 'After', avatar: 'group_avatar.jpg', auto_delete_time: 60 });
      await groups.update(gid, { avatar: null });
      expect(await groups.findById(gid)).toMatchObject({ name: 'After', avatar: null, auto_delete_time: 60 });
      expect((await groups.groupsOf(b.id, page(), 'aFT')).items.map((g) => g.id)).toEqual([gid]);
      expect((await groups.groupsOf(b.id, page(), 'before')).total).toBe(0);

      await groups.setRole(gid, b.id, 'admin');
      expect((await groups.members(gid)).map((m) => [m.user_id, m.role])).toEqual([
        [a.id, 'admin'],
        [b.id, 'admin'],
        [c.id, 'member'],
      ]);
      await groups.setRole(gid, a.id, 'member');
      expect((await groups.membership(gid, a.id))?.role).toBe('member');
      expect((await groups.membership(gid, b.id))?.role).toBe('admin');
    });

    it('finds, edits, reacts to and expires group messages', async () => {
      const { users, groups } = await make();
      const [a, b, c] = await twoUsers(users);
      const gid = await groups.create({ name: 'G', avatar: null, creator_id: a.id, created_at: '2026-01-01 00:00:00' }, [
        { user_id: a.id, role: 'admin' },
        { user_id: b.id, role: 'member' },
        { user_id: c.id, role: 'member' },
      ]);
      const base = { group_id: gid, media: null, media_type: null, parent_id: null, expires_at: null };
      const m1 = await groups.createMessage({ ...base, sender_id: a.id, content: 'hello', created_at: '2026-01-01 00:01:00' });
      const m2 = await groups.createMessage({
        ...base,
        sender_id: b.id,
        content: 'reply',
        media: 'media_y.jpg',
        media_type: 'image',
        parent_id: m1.id,
        created_at: '2026-01-01 00:01:01',
      });
      expect(await groups.findMessage(m2.id)).toEqual({
        id: m2.id,
        group_id: gid,
        sender_id: b.id,
        content: 'reply',
        media: 'media_y.jpg',
        media_type: 'image',
        parent_id: m1.id,
        created_at: '2026-01-01 00:01:01',
        edited_at: null,
        expires_at: null,
      });
      expect(await groups.findMessage(999_999)).toBeNull();
      expect(await groups.findMessages([])).toEqual([]);
      expect(
        (await groups.findMessages([m2.id, 999_999, m1.id])).map((m) => [m.id, m.content]).sort((x, y) => Number(x[0]) - Number(y[0])),
      ).toEqual([
        [m1.id, 'hello'],
        [m2.id, 'reply'],
      ]);

      await groups.updateMessage(m1.id, 'hello, edited', '2026-01-01 00:02:00');
      expect(await groups.findMessage(m1.id)).toMatchObject({
        content: 'hello, edited',
        edited_at: '2026-01-01 00:02:00',
        created_at: '2026-01-01 00:01:00',
        sender_id: a.id,
      });
      expect(await groups.findMessage(m2.id)).toMatchObject({ content: 'reply', edited_at: null });
      expect((await groups.messages(gid, '2026-01-02 00:00:00', page())).items.map((m) => m.content)).toEqual(['hello, edited', 'reply']);

      await groups.react(m1.id, b.id, 'like', '2026-01-01 00:03:00');
      await groups.react(m1.id, b.id, 'love', '2026-01-01 00:03:01');
      await groups.react(m1.id, c.id, 'love', '2026-01-01 00:03:02');
      await groups.react(m2.id, a.id, 'haha', '2026-01-01 00:03:03');
      const r = await groups.reactions([m1.id, m2.id], b.id);
      expect(r.counts.get(m1.id)).toEqual({ love: 2 });
      expect(r.counts.get(m2.id)).toEqual({ haha: 1 });
      expect(r.mine.get(m1.id)).toBe('love');
      expect(r.mine.has(m2.id)).toBe(false);
      expect(await groups.unreact(m1.id, b.id)).toBe(true);
      expect(await groups.unreact(m1.id, b.id)).toBe(false);
      const after = await groups.reactions([m1.id], b.id);
      expect(after.counts.get(m1.id)).toEqual({ love: 1 });
      expect(after.mine.has(m1.id)).toBe(false);
      expect((await groups.reactions([], b.id)).counts.size).toBe(0);

      const brief = await groups.createMessage({
        ...base,
        sender_id: c.id,
        content: 'brief',
        created_at: '2026-01-01 00:03:00',
        expires_at: '2026-01-01 00:08:00',
      });
      await groups.react(brief.id, a.id, 'wow', '2026-01-01 00:03:30');
      expect((await groups.findById(gid))?.last_message_id).toBe(brief.id);
      expect((await groups.messages(gid, '2026-01-01 00:07:59', page())).items.map((m) => m.id)).toEqual([m1.id, m2.id, brief.id]);
      expect((await groups.messages(gid, '2026-01-01 00:08:00', page())).items.map((m) => m.id)).toEqual([m1.id, m2.id]);
      expect(await groups.deleteExpired('2026-01-01 00:07:59')).toBe(0);
      expect(await groups.findMessage(brief.id)).not.toBeNull();
      expect(await groups.deleteExpired('2026-01-01 00:08:00')).toBe(1);
      expect(await groups.findMessage(brief.id)).toBeNull();
      expect((await groups.findById(gid))?.last_message_id).toBe(m2.id);
      expect((await groups.reactions([brief.id], a.id)).counts.has(brief.id)).toBe(false);
      expect(await groups.deleteExpired('2026-01-01 00:08:00')).toBe(0);
      expect((await groups.messages(gid, '2026-01-01 00:00:00', page())).total).toBe(2);
    });
  });

  describe(`${name}: typing`, () => {
    it('reports unexpired entries only, refreshes and clears', async () => {
      const { users, typing } = await make();
      const [a, b, c] = await twoUsers(users);
      await typing.set(a.id, 'user', c.id, '2026-01-01 00:00:10');
      await typing.set(a.id, 'user', c.id, '2026-01-01 00:00:20');
      await typing.set(b.id, 'user', c.id, '2026-01-01 00:00:05');
      expect(await typing.active('user', c.id, '2026-01-01 00:00:00')).toEqual([a.id, b.id].sort((x, y) => x - y));
      expect(await typing.active('user', c.id, '2026-01-01 00:00:15')).toEqual([a.id]);
      expect(await typing.active('group', c.id, '2026-01-01 00:00:00')).toEqual([]);
      await typing.clear(a.id, 'user', c.id);
      expect(await typing.active('user', c.id, '2026-01-01 00:00:00')).toEqual([b.id]);
      await typing.purge('2026-01-01 00:00:06');
      expect(await typing.active('user', c.id, '2026-01-01 00:00:00')).toEqual([]);
    });
  });
}
