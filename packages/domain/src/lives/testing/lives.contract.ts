import { describe, expect, it } from 'vitest';
import type { UserRepository } from '../../accounts/ports.js';
import { aNewUser } from '../../accounts/testing/mothers.js';
import type { LiveRepository } from '../ports.js';

export interface LivePorts {
  users: UserRepository;
  lives: LiveRepository;
}

const T0 = '2026-03-01 10:00:00';
const page = (p = 1, perPage = 20) => ({ page: p, perPage });

export function liveRepositoryContract(name: string, make: () => Promise<LivePorts>) {
  async function setup() {
    const ports = await make();
    const [a, b, c] = [await ports.users.create(aNewUser()), await ports.users.create(aNewUser()), await ports.users.create(aNewUser())];
    const newLive = (userId: number, overrides: { is_public?: boolean; created_at?: string } = {}) =>
      ports.lives.create({
        user_id: userId,
        title: 'On air',
        description: '',
        is_public: true,
        max_guests: 8,
        created_at: T0,
        ...overrides,
      });
    return { ...ports, a, b, c, newLive };
  }

  describe(`${name}: live repository contract`, () => {
    it('creates an active live, finds it, and ends it once', async () => {
      const { lives, a, newLive } = await setup();
      await lives.lockCreator(a.id);
      const live = await newLive(a.id);
      await lives.lockLive(live.id);
      expect(live).toEqual({
        id: live.id,
        user_id: a.id,
        title: 'On air',
        description: '',
        is_public: true,
        max_guests: 8,
        status: 'active',
        background_image: null,
        report_count: 0,
        is_suspended: false,
        created_at: T0,
        ended_at: null,
        end_reason: null,
      });
      expect(await lives.findById(live.id)).toEqual(live);
      expect(await lives.findById(999_999)).toBeNull();
      expect((await lives.findByIds([live.id, 999_999])).map((l) => l.id)).toEqual([live.id]);
      expect(await lives.end(live.id, '2026-03-01 10:30:00', 'room_finished')).toBe(true);
      expect(await lives.end(live.id, '2026-03-01 10:31:00', 'ended')).toBe(false);
      expect(await lives.findById(live.id)).toMatchObject({
        status: 'ended',
        ended_at: '2026-03-01 10:30:00',
        end_reason: 'room_finished',
      });
    });

    it("ends a user's active lives only", async () => {
      const { lives, a, b, newLive } = await setup();
      const l1 = await newLive(a.id);
      const l2 = await newLive(a.id);
      const other = await newLive(b.id);
      expect((await lives.endActiveOf(a.id, T0, 'replaced')).sort()).toEqual([l1.id, l2.id].sort());
      expect(await lives.endActiveOf(a.id, T0, 'replaced')).toEqual([]);
      expect((await lives.findById(l1.id))?.end_reason).toBe('replaced');
      expect((await lives.findById(other.id))?.status).toBe('active');
    });

    it('lists active lives that are public or mine, newest first, paged', async () => {
      const { lives, a, b, c, newLive } = await setup();
      const pub = await newLive(a.id);
      const unlisted = await newLive(b.id, { is_public: false });
      const ended = await newLive(c.id);
      await lives.end(ended.id, T0, 'ended');
      const ids = async (viewer: number) =>
        (await lives.listActive(viewer, page())).items.map((l) => l.id).filter((id) => [pub.id, unlisted.id, ended.id].includes(id));
      expect(await ids(c.id)).toEqual([pub.id]);
      expect(await ids(b.id)).toEqual([unlisted.id, pub.id]);
      const all = await lives.listActive(b.id, page(1, 1));
      expect(all.items).toHaveLength(1);
      expect(all.total).toBeGreaterThanOrEqual(2);
    });

    it('sets and removes the background', async () => {
      const { lives, a, newLive } = await setup();
      const live = await newLive(a.id);
      await lives.setBackground(live.id, 'uploads/posts/media_bg.jpg');
      expect((await lives.findById(live.id))?.background_image).toBe('uploads/posts/media_bg.jpg');
      await lives.setBackground(live.id, null);
      expect((await lives.findById(live.id))?.background_image).toBeNull();
    });

    it('counts viewers pinged since the cutoff or connected to the room, never the creator', async () => {
      const { lives, a, b, c, newLive } = await setup();
      const live = await newLive(a.id);
      const other = await newLive(b.id);
      await lives.pingViewer(live.id, b.id, '2026-03-01 10:00:30');
      await lives.pingViewer(live.id, b.id, '2026-03-01 10:01:30');
      await lives.pingViewer(live.id, c.id, '2026-03-01 10:00:00');
      await lives.pingViewer(live.id, a.id, '2026-03-01 10:01:30');
      await lives.pingViewer(other.id, c.id, '2026-03-01 10:01:30');
      expect(await lives.viewerCounts([live.id, other.id], '2026-03-01 10:01:00')).toEqual(
        new Map([
          [live.id, 1],
          [other.id, 1],
        ]),
      );
      await lives.setMediaPresence(live.id, c.id, true, '2026-03-01 10:01:40');
      expect((await lives.viewerCounts([live.id], '2026-03-01 10:01:00')).get(live.id)).toBe(2);
      await lives.setMediaPresence(live.id, c.id, false, '2026-03-01 10:01:50');
      expect((await lives.viewerCounts([live.id], '2026-03-01 10:01:00')).get(live.id)).toBe(1);
      expect(await lives.viewerCounts([], T0)).toEqual(new Map());
    });

    it('keeps one guest request per user, moves it between statuses, and lists and counts them', async () => {
      const { lives, a, b, c, newLive } = await setup();
      const live = await newLive(a.id);
      expect(await lives.guest(live.id, b.id)).toBeNull();
      const r = await lives.requestGuest(live.id, b.id, 'let me in', '2026-03-01 10:00:01');
      expect(r).toEqual({
        live_id: live.id,
        user_id: b.id,
        status: 'pending',
        message: 'let me in',
        created_at: '2026-03-01 10:00:01',
        decided_at: null,
      });
      await lives.requestGuest(live.id, c.id, null, '2026-03-01 10:00:02');
      expect(await lives.decideGuest(live.id, b.id, ['pending'], 'approved', '2026-03-01 10:00:05')).toBe(true);
      expect(await lives.decideGuest(live.id, b.id, ['pending'], 'rejected', '2026-03-01 10:00:06')).toBe(false);
      expect(await lives.requestGuest(live.id, b.id, 'again', '2026-03-01 10:00:07')).toMatchObject({
        status: 'approved',
        message: 'let me in',
      });
      expect(await lives.countGuests(live.id, 'approved')).toBe(1);
      expect((await lives.guests(live.id, null, page())).items.map((g) => g.user_id)).toEqual([b.id, c.id]);
      expect(await lives.guests(live.id, 'pending', page())).toEqual({ items: [expect.objectContaining({ user_id: c.id })], total: 1 });
      await lives.decideGuest(live.id, c.id, ['pending'], 'rejected', '2026-03-01 10:00:08');
      expect(await lives.requestGuest(live.id, c.id, 'please', '2026-03-01 10:00:09')).toMatchObject({
        status: 'pending',
        message: 'please',
        decided_at: null,
      });
      expect(await lives.decideGuest(999_999, c.id, ['pending'], 'approved', T0)).toBe(false);
    });

    it('appoints moderators and blocks users from the chat, once each', async () => {
      const { lives, a, b, c, newLive } = await setup();
      const live = await newLive(a.id);
      expect(await lives.addModerator(live.id, c.id, T0)).toBe(true);
      expect(await lives.addModerator(live.id, b.id, T0)).toBe(true);
      expect(await lives.addModerator(live.id, c.id, T0)).toBe(false);
      expect(await lives.moderatorIds(live.id)).toEqual([c.id, b.id]);
      expect(await lives.isModerator(live.id, b.id)).toBe(true);
      expect(await lives.isModerator(live.id, a.id)).toBe(false);
      expect(await lives.blockChat(live.id, b.id, T0)).toBe(true);
      expect(await lives.blockChat(live.id, b.id, T0)).toBe(false);
      expect(await lives.blockedIds(live.id)).toEqual([b.id]);
      expect(await lives.isChatBlocked(live.id, b.id)).toBe(true);
      expect(await lives.isChatBlocked(live.id, c.id)).toBe(false);
    });

    it('pages comments from the newest, oldest first within a page, and deletes one', async () => {
      const { lives, a, b, newLive } = await setup();
      const live = await newLive(a.id);
      const made = [];
      for (let i = 1; i <= 5; i++)
        made.push(await lives.addComment({ live_id: live.id, user_id: i % 2 ? a.id : b.id, content: `c${i}`, created_at: T0 }));
      expect(made[0]).toEqual({ id: made[0].id, live_id: live.id, user_id: a.id, content: 'c1', created_at: T0 });
      expect(await lives.findComment(made[1].id)).toEqual(made[1]);
      expect(await lives.findComment(999_999)).toBeNull();
      const p1 = await lives.comments(live.id, page(1, 2));
      expect(p1).toEqual({ items: [made[3], made[4]], total: 5 });
      expect((await lives.comments(live.id, page(3, 2))).items).toEqual([made[0]]);
      expect(await lives.deleteComment(made[4].id)).toBe(true);
      expect(await lives.deleteComment(made[4].id)).toBe(false);
      expect((await lives.comments(live.id, page(1, 2))).items.map((c) => c.content)).toEqual(['c3', 'c4']);
    });

    it('counts one report per reporter and suspends at the threshold', async () => {
      const { users, lives, a, b, c, newLive } = await setup();
      const live = await newLive(a.id);
      const d = await users.create(aNewUser());
      const rep = (who: number) =>
        lives.report({ live_id: live.id, reporter_id: who, reason: 'spam', description: null, created_at: T0 }, 3);
      expect(await rep(b.id)).toEqual({ added: true, report_count: 1, is_suspended: false });
      expect(await rep(b.id)).toEqual({ added: false, report_count: 1, is_suspended: false });
      expect(await rep(c.id)).toEqual({ added: true, report_count: 2, is_suspended: false });
      expect(await rep(d.id)).toEqual({ added: true, report_count: 3, is_suspended: true });
      expect(await lives.findById(live.id)).toMatchObject({ report_count: 3, is_suspended: true });
      const queue = await lives.reports(page(1, 2));
      expect(queue.total).toBeGreaterThanOrEqual(3);
      expect(queue.items.map((r) => r.reporter_id)).toEqual([d.id, c.id]);
      expect(queue.items[0]).toEqual({
        id: queue.items[0].id,
        live_id: live.id,
        reporter_id: d.id,
        reason: 'spam',
        description: null,
        created_at: T0,
      });
    });
  });
}
