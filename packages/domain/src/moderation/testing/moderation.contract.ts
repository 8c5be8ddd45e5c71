import { describe, expect, it } from 'vitest';
import type { UserRepository } from '../../accounts/ports.js';
import { aNewUser } from '../../accounts/testing/mothers.js';
import type {
  CandidacyRepository,
  FeatureSuggestionRepository,
  ModerationLog,
  ModeratorRoster,
  ReportRepository,
  SanctionRepository,
  SuspensionRepository,
} from '../ports.js';

const page = (p = 1, perPage = 20) => ({ page: p, perPage });

export interface ModerationPorts {
  users: UserRepository;
  reports: ReportRepository;
  sanctions: SanctionRepository;
  suspensions: SuspensionRepository;
  log: ModerationLog;
  candidacies: CandidacyRepository;
  roster: ModeratorRoster;
  suggestions: FeatureSuggestionRepository;
}

/** The moderation ports, held to the same behaviour in memory and on SQL. */
export function moderationContract(name: string, make: () => Promise<ModerationPorts>) {
  /** Created one after the other, so their ids ascend in the order given. */
  const people = async (users: UserRepository, n: number) => {
    const out = [];
    for (let i = 0; i < n; i++) out.push(await users.create(aNewUser()));
    return out;
  };

  describe(`${name}: reports`, () => {
    it('stores one pending report per reporter and target, finds it, lists it newest first', async () => {
      const { users, reports } = await make();
      const [a, b, c] = await people(users, 3);
      const base = { reason: 'spam', description: 'ads', created_at: '2026-01-01 00:00:00', post_type: 'post' as const };
      const onPost = await reports.create({
        ...base,
        reporter_id: a.id,
        post_id: 901,
        user_id: null,
        target_user_id: b.id,
        post_content: 'buy now',
      });
      expect(onPost).toEqual({
        id: expect.any(Number),
        reporter_id: a.id,
        post_id: 901,
        post_type: 'post',
        user_id: null,
        target_user_id: b.id,
        reason: 'spam',
        description: 'ads',
        post_content: 'buy now',
        status: 'pending',
        votes_remove: 0,
        votes_warn: 0,
        votes_keep: 0,
        resolution: null,
        resolved_by: null,
        resolved_at: null,
        created_at: '2026-01-01 00:00:00',
      });
      expect(
        await reports.create({ ...base, reporter_id: a.id, post_id: 901, user_id: null, target_user_id: b.id, post_content: 'again' }),
      ).toBeNull();
      const onUser = await reports.create({
        ...base,
        reporter_id: a.id,
        post_id: null,
        user_id: b.id,
        target_user_id: b.id,
        post_content: null,
      });
      const byC = await reports.create({
        ...base,
        reporter_id: c.id,
        post_id: 901,
        user_id: null,
        target_user_id: b.id,
        post_content: 'buy now',
      });
      expect(onUser && byC).toBeTruthy();
      // A group post of the same id is another target: its own pending report.
      const onGroupPost = await reports.create({
        ...base,
        reporter_id: a.id,
        post_id: 901,
        post_type: 'group',
        user_id: null,
        target_user_id: b.id,
        post_content: 'buy now',
      });
      expect(onGroupPost).toMatchObject({ post_id: 901, post_type: 'group' });
      expect((await reports.findPending(a.id, { post_id: 901, post_type: 'group' }))?.id).toBe(onGroupPost!.id);
      expect(await reports.cancel(onGroupPost!.id, '2026-01-01 00:00:30')).toBe(true);
      expect(await reports.findById(onPost!.id)).toEqual(onPost);
      expect(await reports.findById(999_999)).toBeNull();
      expect((await reports.findPending(a.id, { post_id: 901, post_type: 'post' }))?.id).toBe(onPost!.id);
      expect((await reports.findPending(a.id, { user_id: b.id }))?.id).toBe(onUser!.id);
      expect(await reports.findPending(c.id, { user_id: b.id })).toBeNull();
      const all = await reports.list('pending', null, page());
      expect(all.items.map((r) => r.id).filter((id) => [onPost!.id, onUser!.id, byC!.id].includes(id))).toEqual([
        byC!.id,
        onUser!.id,
        onPost!.id,
      ]);
      expect(await reports.list('pending', a.id, page(2, 1))).toEqual({ items: [expect.objectContaining({ id: onPost!.id })], total: 2 });

      // Cancelled: no longer pending, and the reporter may report the same target again.
      expect(await reports.cancel(onUser!.id, '2026-01-01 00:01:00')).toBe(true);
      expect(await reports.cancel(onUser!.id, '2026-01-01 00:01:00')).toBe(false);
      expect((await reports.findById(onUser!.id))?.status).toBe('cancelled');
      expect(await reports.findPending(a.id, { user_id: b.id })).toBeNull();
      expect(
        await reports.create({ ...base, reporter_id: a.id, post_id: null, user_id: b.id, target_user_id: b.id, post_content: null }),
      ).not.toBeNull();
    });

    it('counts votes as they are cast, changed and withdrawn, and resolves a report once', async () => {
      const { users, reports } = await make();
      const [a, b, m1, m2] = await people(users, 4);
      const base = {
        reason: 'violence',
        description: '',
        created_at: '2026-01-01 00:00:00',
        target_user_id: b.id,
        user_id: null,
        post_content: 'x',
        post_type: 'post' as const,
      };
      const r = (await reports.create({ ...base, reporter_id: a.id, post_id: 77 }))!;
      const sibling = (await reports.create({ ...base, reporter_id: m2.id, post_id: 77 }))!;
      await reports.lock(r.id);
      expect(await reports.setVote(r.id, m1.id, 'warn', '2026-01-01 00:01:00')).toBeNull();
      expect(await reports.setVote(r.id, m2.id, 'warn', '2026-01-01 00:01:00')).toBeNull();
      expect(await reports.setVote(r.id, m1.id, 'remove', '2026-01-01 00:02:00')).toBe('warn');
      expect(await reports.findById(r.id)).toMatchObject({ votes_remove: 1, votes_warn: 1, votes_keep: 0 });
      expect(await reports.votesOf(m1.id, [r.id, sibling.id])).toEqual(new Map([[r.id, 'remove']]));
      expect(await reports.setVote(r.id, m2.id, null, '2026-01-01 00:03:00')).toBe('warn');
      expect(await reports.setVote(r.id, m2.id, null, '2026-01-01 00:03:00')).toBeNull();
      expect(await reports.findById(r.id)).toMatchObject({ votes_remove: 1, votes_warn: 0, votes_keep: 0 });
      expect(await reports.votesOf(m2.id, [r.id])).toEqual(new Map());

      const decision = { resolution: 'remove' as const, resolved_by: m1.id, resolved_at: '2026-01-01 00:04:00' };
      expect(await reports.resolve(r.id, decision)).toBe(true);
      expect(await reports.resolve(r.id, { ...decision, resolution: 'keep' })).toBe(false);
      expect(await reports.findById(r.id)).toMatchObject({ status: 'resolved', ...decision });
      const onGroup = (await reports.create({ ...base, reporter_id: m2.id, post_id: 77, post_type: 'group' }))!;
      expect(await reports.resolvePendingOnPost({ post_id: 77, post_type: 'post' }, decision)).toBe(1);
      expect(await reports.resolvePendingOnPost({ post_id: 77, post_type: 'post' }, decision)).toBe(0);
      expect((await reports.findById(onGroup.id))?.status).toBe('pending');
      expect(await reports.findById(sibling.id)).toMatchObject({ status: 'resolved', resolution: 'remove' });
      expect(await reports.cancel(r.id, '2026-01-01 00:05:00')).toBe(false);
      const resolved = await reports.list('resolved', null, page());
      expect(resolved.items.map((x) => x.id).filter((id) => id === r.id || id === sibling.id)).toEqual([sibling.id, r.id]);
      expect((await reports.list('pending', a.id, page())).total).toBe(0);
    });
  });

  describe(`${name}: suspensions and reports about an account`, () => {
    it('suspends an account once, finds it among others, lifts it once', async () => {
      const { users, suspensions } = await make();
      const [u, v, mod] = await people(users, 3);
      const record = { user_id: u.id, suspended_by: mod.id, reason: 'spam wave', created_at: '2026-01-01 00:00:00' };
      expect(await suspensions.find(u.id)).toBeNull();
      expect(await suspensions.suspend(record)).toBe(true);
      expect(await suspensions.suspend({ ...record, reason: 'again' })).toBe(false);
      expect(await suspensions.find(u.id)).toEqual(record);
      expect(await suspensions.suspendedAmong([u.id, v.id, u.id])).toEqual(new Set([u.id]));
      expect(await suspensions.suspendedAmong([])).toEqual(new Set());
      expect(await suspensions.lift(v.id)).toBeNull();
      expect(await suspensions.lift(u.id)).toEqual(record);
      expect(await suspensions.lift(u.id)).toBeNull();
      expect(await suspensions.find(u.id)).toBeNull();
    });

    it('lists the reports whose decision falls on an account, of every status, newest first', async () => {
      const { users, reports } = await make();
      const [a, b, target, other] = await people(users, 4);
      const base = { reason: 'spam', description: '', post_type: 'post' as const, created_at: '2026-01-01 00:00:00' };
      const onPost = (await reports.create({
        ...base,
        reporter_id: a.id,
        post_id: 11,
        user_id: null,
        target_user_id: target.id,
        post_content: 'x',
      }))!;
      const onAccount = (await reports.create({
        ...base,
        reporter_id: b.id,
        post_id: null,
        user_id: target.id,
        target_user_id: target.id,
        post_content: null,
      }))!;
      await reports.create({ ...base, reporter_id: a.id, post_id: 12, user_id: null, target_user_id: other.id, post_content: 'y' });
      await reports.resolve(onPost.id, { resolution: 'keep', resolved_by: b.id, resolved_at: '2026-01-02 00:00:00' });
      const about = await reports.aboutUser(target.id, page());
      expect(about.total).toBe(2);
      expect(about.items.map((r) => [r.id, r.status])).toEqual([
        [onAccount.id, 'pending'],
        [onPost.id, 'resolved'],
      ]);
      expect((await reports.aboutUser(target.id, page(2, 1))).items.map((r) => r.id)).toEqual([onPost.id]);
      expect(await reports.aboutUser(a.id, page())).toEqual({ items: [], total: 0 });
    });
  });

  describe(`${name}: sanctions and the action log`, () => {
    it('counts warnings after a time, finds the ban in force, lists both newest first', async () => {
      const { users, sanctions, log } = await make();
      const [u, v, mod] = await people(users, 3);
      await sanctions.lockUser(u.id);
      const w1 = await sanctions.addWarning({
        user_id: u.id,
        issued_by: mod.id,
        report_id: null,
        reason: 'one',
        created_at: '2026-01-01 00:00:00',
      });
      expect(w1).toEqual({
        id: expect.any(Number),
        user_id: u.id,
        issued_by: mod.id,
        report_id: null,
        reason: 'one',
        created_at: '2026-01-01 00:00:00',
      });
      const w2 = await sanctions.addWarning({
        user_id: u.id,
        issued_by: null,
        report_id: 5,
        reason: 'two',
        created_at: '2026-01-02 00:00:00',
      });
      await sanctions.addWarning({ user_id: v.id, issued_by: mod.id, report_id: null, reason: 'other', created_at: '2026-01-03 00:00:00' });
      expect(await sanctions.countWarningsAfter(u.id, '2025-12-31 00:00:00')).toBe(2);
      expect(await sanctions.countWarningsAfter(u.id, '2026-01-01 00:00:00')).toBe(1);
      expect(await sanctions.warnings(u.id, page())).toEqual({ items: [w2, w1], total: 2 });
      expect((await sanctions.warnings(null, page(1, 2))).total).toBeGreaterThanOrEqual(3);

      const temp = await sanctions.addBan({
        user_id: u.id,
        banned_by: mod.id,
        reason: 'r',
        is_permanent: false,
        expires_at: '2026-01-09 00:00:00',
        created_at: '2026-01-02 00:00:00',
      });
      expect(temp).toEqual({
        id: expect.any(Number),
        user_id: u.id,
        banned_by: mod.id,
        reason: 'r',
        is_permanent: false,
        expires_at: '2026-01-09 00:00:00',
        created_at: '2026-01-02 00:00:00',
      });
      expect(await sanctions.activeBan(u.id, '2026-01-08 23:59:59')).toEqual(temp);
      expect(await sanctions.activeBan(u.id, '2026-01-09 00:00:00')).toBeNull();
      expect(await sanctions.activeBan(v.id, '2026-01-05 00:00:00')).toBeNull();
      const perm = await sanctions.addBan({
        user_id: u.id,
        banned_by: null,
        reason: 'p',
        is_permanent: true,
        expires_at: null,
        created_at: '2026-02-01 00:00:00',
      });
      expect(await sanctions.activeBan(u.id, '2030-01-01 00:00:00')).toEqual(perm);
      expect(await sanctions.bansOf(u.id)).toEqual([perm, temp]);
      expect(await sanctions.bansOf(v.id)).toEqual([]);
      const bans = await sanctions.bans(page(1, 1));
      expect(bans.items).toEqual([perm]);
      expect(bans.total).toBeGreaterThanOrEqual(2);

      const first = await log.record({
        moderator_id: mod.id,
        action_type: 'warning',
        target_user_id: u.id,
        report_id: 5,
        post_id: null,
        reason: 'one',
        by_vote: true,
        created_at: '2026-01-01 00:00:00',
      });
      const second = await log.record({
        moderator_id: mod.id,
        action_type: 'delete_post',
        target_user_id: v.id,
        report_id: null,
        post_id: 9,
        reason: 'two',
        by_vote: false,
        created_at: '2026-01-01 00:00:01',
      });
      expect(first).toEqual({
        id: expect.any(Number),
        moderator_id: mod.id,
        action_type: 'warning',
        target_user_id: u.id,
        report_id: 5,
        post_id: null,
        reason: 'one',
        by_vote: true,
        created_at: '2026-01-01 00:00:00',
      });
      const listed = await log.list(page(1, 2));
      expect(listed.items).toEqual([second, first]);
      expect(listed.total).toBeGreaterThanOrEqual(2);
    });
  });

  describe(`${name}: candidacies and the moderator role`, () => {
    it('opens one candidacy per account, counts votes, elects and closes once', async () => {
      const { users, candidacies } = await make();
      const [cand, other, v1, v2] = await people(users, 4);
      await candidacies.lockCandidate(cand.id);
      const c = (await candidacies.create(cand.id, 'I care', '2026-01-01 00:00:00'))!;
      expect(c).toEqual({
        id: expect.any(Number),
        user_id: cand.id,
        motivation: 'I care',
        status: 'candidate',
        votes_for: 0,
        votes_against: 0,
        created_at: '2026-01-01 00:00:00',
        elected_at: null,
        ended_at: null,
      });
      expect(await candidacies.create(cand.id, 'twice', '2026-01-01 00:00:01')).toBeNull();
      const o = (await candidacies.create(other.id, 'me too', '2026-01-01 00:00:02'))!;
      expect(await candidacies.findOpen(cand.id)).toEqual(c);
      expect((await candidacies.findOpenOf([cand.id, other.id, v1.id])).map((x) => x.id).sort()).toEqual([c.id, o.id].sort());
      const listed = await candidacies.candidates(page());
      expect(listed.items.map((x) => x.id).filter((id) => id === c.id || id === o.id)).toEqual([o.id, c.id]);

      expect(await candidacies.setVote(c.id, v1.id, 'for', '2026-01-01 00:01:00')).toBeNull();
      expect(await candidacies.setVote(c.id, v2.id, 'against', '2026-01-01 00:01:00')).toBeNull();
      expect(await candidacies.setVote(c.id, v2.id, 'against', '2026-01-01 00:01:01')).toBe('against');
      expect(await candidacies.setVote(c.id, v2.id, 'for', '2026-01-01 00:01:02')).toBe('against');
      expect(await candidacies.findOpen(cand.id)).toMatchObject({ votes_for: 2, votes_against: 0 });
      expect(await candidacies.votesOf(v2.id, [c.id, o.id])).toEqual(new Map([[c.id, 'for']]));

      expect(await candidacies.elect(c.id, '2026-01-02 00:00:00')).toBe(true);
      expect(await candidacies.elect(c.id, '2026-01-02 00:00:00')).toBe(false);
      expect(await candidacies.findOpen(cand.id)).toMatchObject({ status: 'elected', elected_at: '2026-01-02 00:00:00' });
      expect((await candidacies.candidates(page())).items.map((x) => x.id)).not.toContain(c.id);
      expect(await candidacies.create(cand.id, 'again', '2026-01-03 00:00:00')).toBeNull();

      expect(await candidacies.close(c.id, 'revoked', '2026-01-04 00:00:00')).toBe(true);
      expect(await candidacies.close(c.id, 'resigned', '2026-01-04 00:00:00')).toBe(false);
      expect(await candidacies.findOpen(cand.id)).toBeNull();
      // A closed candidacy frees the account to apply again, with fresh votes.
      const again = (await candidacies.create(cand.id, 'second term', '2026-01-05 00:00:00'))!;
      expect(again).toMatchObject({ status: 'candidate', votes_for: 0, votes_against: 0 });
      expect(await candidacies.votesOf(v2.id, [again.id])).toEqual(new Map());
    });

    it('sets the moderator flag and lists moderators, admins included, by id', async () => {
      const { users, roster } = await make();
      const [a, b, c] = await people(users, 3);
      await roster.setModerator(b.id, true);
      await users.setAdmin(c.id, true);
      const mine = (ids: number[]) => ids.filter((id) => [a.id, b.id, c.id].includes(id));
      expect((await users.findById(b.id))?.is_moderator).toBe(true);
      expect(mine((await roster.moderatorIds(page(1, 100))).ids)).toEqual([b.id, c.id]);
      await roster.setModerator(b.id, false);
      expect((await users.findById(b.id))?.is_moderator).toBe(false);
      const after = await roster.moderatorIds(page(1, 100));
      expect(mine(after.ids)).toEqual([c.id]);
      expect(after.total).toBe(after.ids.length);
    });
  });

  describe(`${name}: feature suggestions`, () => {
    it('creates, lists by filter, votes with counters and score, comments, sets status, deletes', async () => {
      const { users, suggestions } = await make();
      const [a, b] = await people(users, 2);
      const s1 = await suggestions.create({
        user_id: a.id,
        title: 'Dark mode',
        description: 'A dark theme for the night',
        created_at: '2026-01-01 00:00:00',
      });
      expect(s1).toEqual({
        id: expect.any(Number),
        user_id: a.id,
        title: 'Dark mode',
        description: 'A dark theme for the night',
        status: 'pending',
        admin_response: null,
        votes_up: 0,
        votes_down: 0,
        score: 0,
        comment_count: 0,
        created_at: '2026-01-01 00:00:00',
        updated_at: '2026-01-01 00:00:00',
      });
      const s2 = await suggestions.create({
        user_id: b.id,
        title: 'Polls',
        description: 'Polls inside posts, please',
        created_at: '2026-01-01 00:00:01',
      });
      const s3 = await suggestions.create({
        user_id: b.id,
        title: 'Maps',
        description: 'Show events on a map view',
        created_at: '2026-01-01 00:00:02',
      });
      await suggestions.lock(s1.id);
      expect(await suggestions.setVote(s1.id, a.id, 1, '2026-01-01 00:01:00')).toBeNull();
      expect(await suggestions.setVote(s1.id, b.id, 1, '2026-01-01 00:01:00')).toBeNull();
      expect(await suggestions.setVote(s3.id, a.id, -1, '2026-01-01 00:01:00')).toBeNull();
      expect(await suggestions.setVote(s1.id, b.id, -1, '2026-01-01 00:01:01')).toBe(1);
      expect(await suggestions.findById(s1.id)).toMatchObject({ votes_up: 1, votes_down: 1, score: 0 });
      expect(await suggestions.setVote(s1.id, b.id, null, '2026-01-01 00:01:02')).toBe(-1);
      expect(await suggestions.findById(s1.id)).toMatchObject({ votes_up: 1, votes_down: 0, score: 1 });
      expect(await suggestions.votesOf(a.id, [s1.id, s2.id, s3.id])).toEqual(
        new Map([
          [s1.id, 1],
          [s3.id, -1],
        ]),
      );

      const ids = (r: { items: { id: number }[] }) => r.items.map((x) => x.id).filter((id) => [s1.id, s2.id, s3.id].includes(id));
      expect(ids(await suggestions.list('popular', page(1, 100)))).toEqual([s1.id, s2.id, s3.id]);
      expect(ids(await suggestions.list('recent', page(1, 100)))).toEqual([s3.id, s2.id, s1.id]);
      expect(ids(await suggestions.list(null, page(1, 100)))).toEqual([s3.id, s2.id, s1.id]);
      await suggestions.setStatus(s2.id, 'in_progress', 'On it', '2026-01-02 00:00:00');
      await suggestions.setStatus(s3.id, 'planned', null, '2026-01-02 00:00:00');
      await suggestions.setStatus(s1.id, 'done', 'Shipped', '2026-01-03 00:00:00');
      expect(await suggestions.findById(s2.id)).toMatchObject({
        status: 'in_progress',
        admin_response: 'On it',
        updated_at: '2026-01-02 00:00:00',
      });
      expect(ids(await suggestions.list('planned', page(1, 100)))).toEqual([s2.id, s3.id]);
      expect(ids(await suggestions.list('done', page(1, 100)))).toEqual([s1.id]);
      const counts = await suggestions.countByStatus();
      expect(Object.keys(counts).sort()).toEqual(['done', 'in_progress', 'pending', 'planned', 'rejected']);
      expect(counts.in_progress).toBeGreaterThanOrEqual(1);

      const c1 = await suggestions.addComment({ suggestion_id: s1.id, user_id: b.id, content: 'Yes!', created_at: '2026-01-04 00:00:00' });
      expect(c1).toEqual({
        id: expect.any(Number),
        suggestion_id: s1.id,
        user_id: b.id,
        content: 'Yes!',
        created_at: '2026-01-04 00:00:00',
      });
      const c2 = await suggestions.addComment({
        suggestion_id: s1.id,
        user_id: a.id,
        content: 'Thanks',
        created_at: '2026-01-04 00:00:01',
      });
      expect(await suggestions.comments(s1.id, page())).toEqual({ items: [c1, c2], total: 2 });
      expect(await suggestions.comments(s1.id, page(2, 1))).toEqual({ items: [c2], total: 2 });
      expect((await suggestions.findById(s1.id))?.comment_count).toBe(2);

      expect(await suggestions.delete(s1.id)).toBe(true);
      expect(await suggestions.delete(s1.id)).toBe(false);
      expect(await suggestions.findById(s1.id)).toBeNull();
      expect(await suggestions.comments(s1.id, page())).toEqual({ items: [], total: 0 });
      expect(await suggestions.votesOf(a.id, [s1.id])).toEqual(new Map());
    });
  });
}
