import { describe, expect, it } from 'vitest';
import type { UserRepository } from '../../accounts/ports.js';
import { aNewUser } from '../../accounts/testing/mothers.js';
import type { CommentRepository } from '../../content/ports.js';
import type { NotificationInbox } from '../../notifications/inbox.js';
import type { NotificationRepository } from '../../notifications/ports.js';
import type { GroupCommentRepository, GroupPostRepository, GroupRepository } from '../ports.js';
import { canSeeGroupContent } from '../visibility.js';

export interface GroupPorts {
  users: UserRepository;
  groups: GroupRepository;
  posts: GroupPostRepository;
  comments: GroupCommentRepository;
  /** Content's comment reactions, where group comments' reactions live (type `group`). */
  commentReactions: CommentRepository;
  notifications: NotificationRepository;
  inbox: NotificationInbox;
  /** Opens and decides a report on a group post (the moderation context's), as `underReport` reads them. */
  reports: { open(postId: number): Promise<void>; close(postId: number): Promise<void> };
}

const page = (p: number, perPage = 20) => ({ page: p, perPage });
const at = (minute: number) => `2026-03-01 10:${String(minute).padStart(2, '0')}:00`;
const base = (creator: number, over: Partial<{ name: string; privacy: 'public' | 'private' }> = {}) => ({
  name: over.name ?? 'Group',
  description: 'about things',
  avatar: null,
  cover_image: null,
  privacy: over.privacy ?? ('public' as const),
  creator_id: creator,
  created_at: at(0),
});

/** The group ports, held to the same behaviour in memory and on SQL. */
export function groupsContract(name: string, make: () => Promise<GroupPorts>) {
  describe(`${name}: groups ports contract`, () => {
    it('creates a group with its creator as admin, updates, finds and deletes it', async () => {
      const { users, groups } = await make();
      const u = await users.create(aNewUser());
      const g = await groups.create(base(u.id, { name: 'Gardeners' }));
      expect(g).toEqual({
        id: expect.any(Number),
        ...base(u.id, { name: 'Gardeners' }),
        members_count: 1,
        posts_count: 0,
        updated_at: null,
      });
      expect(await groups.relation(g.id, u.id)).toEqual({ role: 'admin', invited: false, requested: false });
      await groups.update(g.id, { name: 'Growers', avatar: 'uploads/group_a.png', privacy: 'private', updated_at: at(1) });
      expect(await groups.findById(g.id)).toMatchObject({
        name: 'Growers',
        description: 'about things',
        avatar: 'uploads/group_a.png',
        privacy: 'private',
        updated_at: at(1),
      });
      expect(await groups.lock(g.id)).toBe(true);
      expect(await groups.lock(g.id + 1000)).toBe(false);
      await groups.delete(g.id);
      expect(await groups.findById(g.id)).toBeNull();
      expect(await groups.relation(g.id, u.id)).toEqual({ role: null, invited: false, requested: false });
    });

    it('keeps members, roles, requests and invitations, with an exact members_count', async () => {
      const { users, groups } = await make();
      const [a, b, c, d] = [
        await users.create(aNewUser()),
        await users.create(aNewUser()),
        await users.create(aNewUser()),
        await users.create(aNewUser()),
      ];
      const g = await groups.create(base(a.id));
      expect(await groups.addMember(g.id, b.id, 'member', at(1))).toBe(true);
      expect(await groups.addMember(g.id, b.id, 'member', at(2))).toBe(false);
      expect(await groups.addMember(g.id, c.id, 'member', at(3))).toBe(true);
      expect((await groups.findById(g.id))?.members_count).toBe(3);
      expect(await groups.setRole(g.id, c.id, 'admin')).toBe(true);
      expect(await groups.setRole(g.id, d.id, 'admin')).toBe(false);
      expect(await groups.adminIds(g.id)).toEqual([a.id, c.id]);
      expect((await groups.members(g.id, page(1))).map((m) => [m.user_id, m.role])).toEqual([
        [a.id, 'admin'],
        [c.id, 'admin'],
        [b.id, 'member'],
      ]);
      expect((await groups.members(g.id, page(2, 2))).map((m) => m.user_id)).toEqual([b.id]);
      expect((await groups.longestMember(g.id, a.id))?.user_id).toBe(b.id);
      expect(await groups.removeMember(g.id, b.id)).toBe(true);
      expect(await groups.removeMember(g.id, b.id)).toBe(false);
      expect((await groups.findById(g.id))?.members_count).toBe(2);

      expect(await groups.addRequest(g.id, d.id, at(4))).toBe(true);
      expect(await groups.addRequest(g.id, d.id, at(5))).toBe(false);
      expect(await groups.addRequest(g.id, b.id, at(6))).toBe(true);
      expect((await groups.requests(g.id, page(1))).map((r) => [r.user_id, r.created_at])).toEqual([
        [d.id, at(4)],
        [b.id, at(6)],
      ]);
      expect(await groups.relation(g.id, d.id)).toEqual({ role: null, invited: false, requested: true });
      expect(await groups.removeRequest(g.id, d.id)).toBe(true);
      expect(await groups.removeRequest(g.id, d.id)).toBe(false);

      expect(await groups.addInvitation(g.id, d.id, a.id, at(7))).toBe(true);
      expect(await groups.addInvitation(g.id, d.id, c.id, at(8))).toBe(false);
      expect(await groups.relation(g.id, d.id)).toEqual({ role: null, invited: true, requested: false });
      const other = await groups.create(base(d.id));
      expect(await groups.relations([g.id, other.id, other.id + 1000], d.id)).toEqual(
        new Map([
          [g.id, { role: null, invited: true, requested: false }],
          [other.id, { role: 'admin', invited: false, requested: false }],
          [other.id + 1000, { role: null, invited: false, requested: false }],
        ]),
      );
      expect(await groups.removeInvitation(g.id, d.id)).toBe(true);
      expect(await groups.removeInvitation(g.id, d.id)).toBe(false);
    });

    it('lists joined groups newest membership first and public groups to discover, filtered by q', async () => {
      const { users, groups } = await make();
      const [a, b] = [await users.create(aNewUser()), await users.create(aNewUser())];
      const g1 = await groups.create(base(a.id, { name: 'Bike repair' }));
      const g2 = await groups.create(base(b.id, { name: 'Seed library' }));
      const g3 = await groups.create(base(b.id, { name: 'Secret bikes', privacy: 'private' }));
      const g4 = await groups.create(base(b.id, { name: 'Night bikes' }));
      await groups.addMember(g4.id, a.id, 'member', at(1));
      await groups.addMember(g2.id, a.id, 'member', at(2));
      expect((await groups.listJoined(a.id, null, page(1))).map((g) => g.id)).toEqual([g2.id, g4.id, g1.id]);
      expect((await groups.listJoined(a.id, 'BIKE', page(1))).map((g) => g.id)).toEqual([g4.id, g1.id]);
      expect((await groups.listJoined(a.id, null, page(1, 2))).length).toBe(3);
      expect((await groups.listJoined(a.id, null, page(2, 2))).map((g) => g.id)).toEqual([g1.id]);
      // Other tests' groups may share the database: discover lists are read within this test's groups.
      const mine = new Set([g1.id, g2.id, g3.id, g4.id]);
      const discover = async (userId: number, q: string | null) =>
        (await groups.listDiscover(userId, q, page(1, 100))).map((g) => g.id).filter((id) => mine.has(id));
      // b: g1 is the only public group b is not in; the private g3 is never discovered.
      expect(await discover(b.id, null)).toEqual([g1.id]);
      const c = await users.create(aNewUser());
      // Most members first (g4 and g2 have two), then newest.
      expect(await discover(c.id, null)).toEqual([g4.id, g2.id, g1.id]);
      expect(await discover(c.id, 'bike')).toEqual([g4.id, g1.id]);
      expect(await discover(c.id, 'secret')).toEqual([]);
      expect(g3.privacy).toBe('private');
    });

    it('keeps posts with exact posts_count and likes_count, and one reaction per user', async () => {
      const { users, groups, posts } = await make();
      const [a, b] = [await users.create(aNewUser()), await users.create(aNewUser())];
      const g = await groups.create(base(a.id));
      const p1 = await posts.create({
        group_id: g.id,
        user_id: a.id,
        content: 'one',
        media: ['group_post_a.jpg'],
        media_type: 'image',
        tags: ['x'],
        created_at: at(1),
      });
      const p2 = await posts.create({
        group_id: g.id,
        user_id: b.id,
        content: 'two',
        media: [],
        media_type: null,
        tags: [],
        created_at: at(2),
      });
      expect(p1).toEqual({
        id: expect.any(Number),
        group_id: g.id,
        user_id: a.id,
        content: 'one',
        media: ['group_post_a.jpg'],
        media_type: 'image',
        tags: ['x'],
        likes_count: 0,
        comments_count: 0,
        created_at: at(1),
        updated_at: null,
      });
      expect((await groups.findById(g.id))?.posts_count).toBe(2);
      expect((await posts.listByGroup(g.id, page(1))).map((p) => p.id)).toEqual([p2.id, p1.id]);
      expect((await posts.listByGroup(g.id, page(2, 1))).map((p) => p.id)).toEqual([p1.id]);
      await posts.update(p1.id, { content: 'edited', updated_at: at(3) });
      expect(await posts.findById(p1.id)).toMatchObject({ content: 'edited', updated_at: at(3), media: ['group_post_a.jpg'] });
      expect(await posts.react(p1.id, a.id, 'like', at(4))).toBe('added');
      expect(await posts.react(p1.id, a.id, 'love', at(5))).toBe('changed');
      expect(await posts.react(p1.id, a.id, 'love', at(6))).toBe('unchanged');
      expect(await posts.react(p1.id, b.id, 'wow', at(7))).toBe('added');
      expect((await posts.findById(p1.id))?.likes_count).toBe(2);
      expect(await posts.reactionsBy(a.id, [p1.id, p2.id])).toEqual(new Map([[p1.id, 'love']]));
      expect(await posts.unreact(p1.id, b.id)).toBe(true);
      expect(await posts.unreact(p1.id, b.id)).toBe(false);
      expect((await posts.findById(p1.id))?.likes_count).toBe(1);
      expect(await posts.delete(p2.id)).toBe(true);
      expect(await posts.delete(p2.id)).toBe(false);
      expect((await groups.findById(g.id))?.posts_count).toBe(1);
    });

    it('tells whether a pending report names a group post', async () => {
      const { users, groups, posts, reports } = await make();
      const a = await users.create(aNewUser());
      const g = await groups.create(base(a.id, { name: 'Reported' }));
      const p = await posts.create({
        group_id: g.id,
        user_id: a.id,
        content: 'judged',
        media: [],
        media_type: null,
        tags: [],
        created_at: at(1),
      });
      expect(await posts.underReport(p.id)).toBe(false);
      await reports.open(p.id);
      expect(await posts.underReport(p.id)).toBe(true);
      await reports.close(p.id);
      expect(await posts.underReport(p.id)).toBe(false);
    });

    it('keeps comment threads with an exact comments_count; deleting takes replies and reactions', async () => {
      const { users, groups, posts, comments, commentReactions } = await make();
      const [a, b] = [await users.create(aNewUser()), await users.create(aNewUser())];
      const g = await groups.create(base(a.id));
      const p = await posts.create({
        group_id: g.id,
        user_id: a.id,
        content: 'p',
        media: [],
        media_type: null,
        tags: [],
        created_at: at(1),
      });
      const root = await comments.create({
        post_id: p.id,
        group_id: g.id,
        user_id: a.id,
        parent_id: null,
        content: 'root',
        created_at: at(2),
      });
      const reply = await comments.create({
        post_id: p.id,
        group_id: g.id,
        user_id: b.id,
        parent_id: root.id,
        content: 'reply',
        created_at: at(3),
      });
      const deep = await comments.create({
        post_id: p.id,
        group_id: g.id,
        user_id: a.id,
        parent_id: reply.id,
        content: 'deep',
        created_at: at(4),
      });
      const other = await comments.create({
        post_id: p.id,
        group_id: g.id,
        user_id: b.id,
        parent_id: null,
        content: 'other',
        created_at: at(5),
      });
      expect(root).toEqual({
        id: expect.any(Number),
        post_id: p.id,
        group_id: g.id,
        user_id: a.id,
        parent_id: null,
        content: 'root',
        created_at: at(2),
        updated_at: null,
      });
      expect((await posts.findById(p.id))?.comments_count).toBe(4);
      expect((await comments.roots(p.id, page(1))).map((c) => c.id)).toEqual([root.id, other.id]);
      expect((await comments.replies(p.id, [root.id, reply.id])).map((c) => c.id)).toEqual([reply.id, deep.id]);
      expect(await comments.lock(root.id)).toBe(true);
      expect(await comments.lock(root.id + 100_000)).toBe(false);
      await comments.update(other.id, 'changed', at(6));
      expect(await comments.findById(other.id)).toMatchObject({ content: 'changed', updated_at: at(6) });
      await commentReactions.react('group', deep.id, b.id, 'like', at(7));
      await commentReactions.react('group', other.id, a.id, 'like', at(8));
      expect(await comments.delete(root.id)).toBe(true);
      expect(await comments.delete(root.id)).toBe(false);
      expect(await comments.findById(deep.id)).toBeNull();
      expect((await posts.findById(p.id))?.comments_count).toBe(1);
      expect(await commentReactions.countReactions('group', [deep.id, other.id])).toEqual(new Map([[other.id, 1]]));
      // Deleting the post takes its remaining comments and their reactions.
      await posts.delete(p.id);
      expect(await comments.findById(other.id)).toBeNull();
      expect(await commentReactions.countReactions('group', [other.id])).toEqual(new Map());
    });

    it('deletes a group with its posts, comments and their reactions', async () => {
      const { users, groups, posts, comments, commentReactions } = await make();
      const a = await users.create(aNewUser());
      const g = await groups.create(base(a.id));
      const p = await posts.create({
        group_id: g.id,
        user_id: a.id,
        content: 'p',
        media: [],
        media_type: null,
        tags: [],
        created_at: at(1),
      });
      const c = await comments.create({ post_id: p.id, group_id: g.id, user_id: a.id, parent_id: null, content: 'c', created_at: at(2) });
      await posts.react(p.id, a.id, 'like', at(3));
      await commentReactions.react('group', c.id, a.id, 'like', at(4));
      await groups.addRequest(g.id, (await users.create(aNewUser())).id, at(5));
      await groups.delete(g.id);
      expect(await posts.findById(p.id)).toBeNull();
      expect(await comments.findById(c.id)).toBeNull();
      expect(await commentReactions.countReactions('group', [c.id])).toEqual(new Map());
    });

    it('hides notifications about a private group’s content from non-members, as canSeeGroupContent says', async () => {
      const { users, groups, notifications, inbox } = await make();
      const [admin, member, leaver, stranger] = [
        await users.create(aNewUser()),
        await users.create(aNewUser()),
        await users.create(aNewUser()),
        await users.create(aNewUser()),
      ];
      const priv = await groups.create(base(admin.id, { privacy: 'private' }));
      const pub = await groups.create(base(admin.id));
      await groups.addMember(priv.id, member.id, 'member', at(1));
      await groups.addMember(priv.id, leaver.id, 'member', at(1));
      const seen = new Map<number, string[]>();
      for (const u of [member, leaver, stranger]) {
        await notifications.create({
          user_id: u.id,
          from_user_id: admin.id,
          type: 'comment',
          group_id: priv.id,
          content: 'private comment',
          created_at: at(2),
        });
        await notifications.create({
          user_id: u.id,
          from_user_id: admin.id,
          type: 'reaction',
          group_id: pub.id,
          content: 'public reaction',
          created_at: at(3),
        });
        await notifications.create({
          user_id: u.id,
          from_user_id: admin.id,
          type: 'group_invite',
          group_id: priv.id,
          content: 'invitation',
          created_at: at(4),
        });
      }
      await groups.removeMember(priv.id, leaver.id);
      for (const u of [member, leaver, stranger]) {
        const reader = { userId: u.id, moderator: true };
        seen.set(
          u.id,
          (await inbox.list(reader, page(1), false)).map((n) => n.content ?? ''),
        );
        const expected = [
          'invitation',
          'public reaction',
          ...(canSeeGroupContent(priv, await groups.relation(priv.id, u.id)) ? ['private comment'] : []),
        ];
        expect(seen.get(u.id), `user ${u.id}`).toEqual(expected);
        expect(await inbox.countUnread(reader)).toBe(expected.length);
      }
      expect(seen.get(member.id)).toContain('private comment');
      expect(seen.get(leaver.id)).not.toContain('private comment');
      // Each listed notification carries the name of the group it links, read in the same query.
      const listed = await inbox.list({ userId: member.id, moderator: false }, page(1), false);
      expect(listed.map((n) => n.group_name)).toEqual([priv.name, pub.name, priv.name]);
    });
  });
}
