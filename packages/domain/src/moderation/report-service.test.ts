import { describe, expect, it, vi } from 'vitest';
import { Conflict, Forbidden, Invalid, NotFound } from '../shared/errors.js';
import { pageRequest } from '../shared/pagination.js';
import { moderationWorld } from './testing/world.js';

const page = pageRequest();

async function reportedPost(w: ReturnType<typeof moderationWorld>, content = 'offensive words') {
  const [author, reporter] = [await w.actor(), await w.actor()];
  const post = (await w.posts.create(author, { content })).post;
  const report = (await w.reportService.create(reporter, { post_id: post.id, reason: 'hate_speech', description: 'see this' })).report;
  return { author, reporter, post, report };
}

describe('ReportService: reporting', () => {
  it('stores a report on a post with the text as reported, and one on an account', async () => {
    const w = moderationWorld();
    const { author, reporter, post, report } = await reportedPost(w, 'as first written');
    expect(report).toMatchObject({
      reporter_id: reporter.userId,
      post_id: post.id,
      user_id: null,
      target_user_id: author.userId,
      post_content: 'as first written',
      status: 'pending',
    });
    const onUser = (await w.reportService.create(reporter, { user_id: author.userId, reason: 'harassment' })).report;
    expect(onUser).toMatchObject({ post_id: null, user_id: author.userId, target_user_id: author.userId, description: '' });
  });

  it('refuses bad input, oneself, invisible posts and a second pending report, changing nothing', async () => {
    const w = moderationWorld();
    const { author, reporter, post } = await reportedPost(w);
    const before = w.reports.rows.length;
    await expect(w.reportService.create(reporter, { reason: 'spam' })).rejects.toBeInstanceOf(Invalid);
    await expect(w.reportService.create(reporter, { post_id: post.id, user_id: author.userId, reason: 'spam' })).rejects.toBeInstanceOf(
      Invalid,
    );
    await expect(w.reportService.create(reporter, { post_id: post.id, reason: 'boring' })).rejects.toMatchObject({
      code: 'invalid_reason',
    });
    await expect(w.reportService.create(reporter, { user_id: reporter.userId, reason: 'spam' })).rejects.toMatchObject({
      code: 'cannot_report_self',
    });
    await expect(w.reportService.create(author, { post_id: post.id, reason: 'spam' })).rejects.toMatchObject({
      code: 'cannot_report_self',
    });
    await expect(w.reportService.create(reporter, { user_id: 999, reason: 'spam' })).rejects.toBeInstanceOf(NotFound);
    await expect(w.reportService.create(reporter, { post_id: post.id, reason: 'spam' })).rejects.toMatchObject({
      code: 'already_reported',
    });
    // A private account's post is unknown to a reporter who does not follow it.
    const secret = await w.actor();
    w.users.rows.get(secret.userId)!.is_private = true;
    const hidden = (await w.posts.create(secret, { content: 'followers only' })).post;
    await expect(w.reportService.create(reporter, { post_id: hidden.id, reason: 'spam' })).rejects.toBeInstanceOf(NotFound);
    expect(w.reports.rows.length).toBe(before);
  });

  it('shows moderators the whole queue, private content included, and members only their own reports', async () => {
    const w = moderationWorld();
    const { reporter, report } = await reportedPost(w);
    const secret = await w.actor();
    w.users.rows.get(secret.userId)!.is_private = true;
    const follower = await w.actor();
    await w.store.follows.follow(follower.userId, secret.userId, '2026-06-01 00:00:00');
    const hidden = (await w.posts.create(secret, { content: 'seen by followers' })).post;
    const second = (await w.reportService.create(follower, { post_id: hidden.id, reason: 'violence' })).report;
    const mod = await w.actor({ moderator: true });
    const queue = await w.reportService.list(mod, 'pending', page);
    expect(queue.items.map((v) => v.report.id)).toEqual([second.id, report.id]);
    expect(queue.items[0]).toMatchObject({
      report: { post_content: 'seen by followers' },
      reported: { id: secret.userId },
      reporter: { id: follower.userId },
      my_vote: null,
    });
    expect((await w.reportService.list(reporter, 'pending', page)).items.map((v) => v.report.id)).toEqual([report.id]);
    expect((await w.reportService.list(await w.actor(), 'pending', page)).items).toEqual([]);
    expect(queue.meta).toEqual({ current_page: 1, per_page: 20, total: 2, total_pages: 1 });
  });
});

describe('ReportService: votes', () => {
  it('refuses members, the reported account itself and `remove` on an account report, changing nothing', async () => {
    const w = moderationWorld();
    const { author, reporter, report } = await reportedPost(w);
    await expect(w.reportService.vote(reporter, report.id, 'remove')).rejects.toMatchObject({ code: 'not_moderator' });
    await expect(w.reportService.act(reporter, report.id, 'delete_post')).rejects.toBeInstanceOf(Forbidden);
    const authorAsMod = { ...author, isModerator: true };
    await expect(w.reportService.vote(authorAsMod, report.id, 'keep')).rejects.toMatchObject({ code: 'own_case' });
    const mod = await w.actor({ moderator: true });
    const onUser = (await w.reportService.create(reporter, { user_id: author.userId, reason: 'spam' })).report;
    await expect(w.reportService.vote(mod, onUser.id, 'remove')).rejects.toMatchObject({ code: 'invalid_vote' });
    await expect(w.reportService.act(mod, onUser.id, 'delete_post')).rejects.toMatchObject({ code: 'invalid_action' });
    await expect(w.reportService.vote(mod, 999, 'keep')).rejects.toBeInstanceOf(NotFound);
    expect(w.reports.votes).toEqual([]);
    expect(await w.reports.findById(report.id)).toMatchObject({ status: 'pending', votes_remove: 0 });
  });

  it('counts, changes and withdraws votes; the threshold resolves once, removes the post through content and warns once', async () => {
    const w = moderationWorld({ reportVotes: 3 });
    const { author, reporter, post, report } = await reportedPost(w);
    const sibling = (await w.reportService.create(await w.actor(), { post_id: post.id, reason: 'spam' })).report;
    const [m1, m2, m3, m4] = [
      await w.actor({ moderator: true }),
      await w.actor({ moderator: true }),
      await w.actor({ admin: true }),
      await w.actor({ moderator: true }),
    ];
    expect((await w.reportService.vote(m1, report.id, 'warn')).report).toMatchObject({ my_vote: 'warn' });
    expect((await w.reportService.vote(m1, report.id, 'remove')).report.report).toMatchObject({ votes_remove: 1, votes_warn: 0 });
    await w.reportService.vote(m2, report.id, 'remove');
    const withdrawn = await w.reportService.vote(m2, report.id, 'cancel');
    expect(withdrawn).toMatchObject({ resolved: false, report: { my_vote: null, report: { votes_remove: 1 } } });
    await w.reportService.vote(m2, report.id, 'remove');
    const third = await w.reportService.vote(m3, report.id, 'remove');
    expect(third.resolved).toBe(true);
    expect(third.report.report).toMatchObject({ status: 'resolved', resolution: 'remove', resolved_by: m3.userId, votes_remove: 3 });
    await expect(w.reportService.vote(m4, report.id, 'remove')).rejects.toMatchObject({ code: 'report_not_pending' });

    await expect(w.posts.view(reporter, post.id)).rejects.toBeInstanceOf(NotFound);
    expect(await w.reports.findById(sibling.id)).toMatchObject({ status: 'resolved', resolution: 'remove' });
    expect(w.sanctionRepo.warningRows).toEqual([
      expect.objectContaining({ user_id: author.userId, issued_by: m3.userId, report_id: report.id }),
    ]);
    expect(w.log.rows).toEqual([
      expect.objectContaining({
        action_type: 'delete_post',
        moderator_id: m3.userId,
        target_user_id: author.userId,
        post_id: post.id,
        by_vote: true,
      }),
    ]);
    expect(w.notes.rows.filter((n) => n.user_id === author.userId)).toEqual([expect.objectContaining({ type: 'warning' })]);
    expect((await w.reportService.list(m1, 'resolved', page)).items.map((v) => v.report.id)).toEqual([sibling.id, report.id]);
  });

  it('closes a report voted `keep` without a sanction, and tells the reporter', async () => {
    const w = moderationWorld({ reportVotes: 2 });
    const { author, reporter, post, report } = await reportedPost(w);
    for (const m of [await w.actor({ moderator: true }), await w.actor({ moderator: true })])
      await w.reportService.vote(m, report.id, 'keep');
    expect(await w.reports.findById(report.id)).toMatchObject({ status: 'resolved', resolution: 'keep' });
    expect((await w.posts.view(author, post.id)).post.id).toBe(post.id);
    expect(w.sanctionRepo.warningRows).toEqual([]);
    expect(w.log.rows).toEqual([]);
    expect(w.notes.rows.filter((n) => n.type === 'report_closed')).toEqual([expect.objectContaining({ user_id: reporter.userId })]);
  });

  it('undoes the whole decision when a step of it fails', async () => {
    const w = moderationWorld({ reportVotes: 1 });
    const { post, report, reporter } = await reportedPost(w);
    const mod = await w.actor({ moderator: true });
    vi.spyOn(w.log, 'record').mockRejectedValueOnce(new Error('disk full'));
    await expect(w.reportService.vote(mod, report.id, 'remove')).rejects.toThrow('disk full');
    expect(await w.reports.findById(report.id)).toMatchObject({ status: 'pending', votes_remove: 0 });
    expect(w.reports.votes).toEqual([]);
    expect(w.sanctionRepo.warningRows).toEqual([]);
    expect((await w.posts.view(reporter, post.id)).post.id).toBe(post.id);
    expect(w.uow.rollbacks).toBe(1);
  });
});

describe('ReportService: direct actions and cancellation', () => {
  it('lets one moderator warn with their own words, logged as theirs', async () => {
    const w = moderationWorld();
    const { author, report } = await reportedPost(w);
    const mod = await w.actor({ moderator: true });
    const view = await w.reportService.act(mod, report.id, 'warn_user', 'Mind your words');
    expect(view.report).toMatchObject({ status: 'resolved', resolution: 'warn', resolved_by: mod.userId });
    expect(w.sanctionRepo.warningRows).toEqual([expect.objectContaining({ user_id: author.userId, reason: 'Mind your words' })]);
    expect(w.log.rows).toEqual([expect.objectContaining({ action_type: 'warning', by_vote: false, reason: 'Mind your words' })]);
    await expect(w.reportService.act(mod, report.id, 'delete_post')).rejects.toBeInstanceOf(Conflict);
  });

  it('cancels only one’s own pending report, by id or by target', async () => {
    const w = moderationWorld();
    const { author, reporter, post, report } = await reportedPost(w);
    await expect(w.reportService.cancel(author, { report_id: report.id })).rejects.toMatchObject({ code: 'not_reporter' });
    await expect(w.reportService.cancel(reporter, { user_id: author.userId })).rejects.toBeInstanceOf(NotFound);
    await w.reportService.cancel(reporter, { post_id: post.id, post_type: 'post' });
    expect((await w.reports.findById(report.id))?.status).toBe('cancelled');
    await expect(w.reportService.cancel(reporter, { report_id: report.id })).rejects.toMatchObject({ code: 'report_not_pending' });
    await expect(w.reportService.vote(await w.actor({ moderator: true }), report.id, 'keep')).rejects.toMatchObject({
      code: 'report_not_pending',
    });
  });
});

describe('SanctionService', () => {
  async function warnTimes(w: ReturnType<typeof moderationWorld>, target: { userId: number }, n: number) {
    const mod = await w.actor({ moderator: true });
    for (let i = 0; i < n; i++) {
      const reporter = await w.actor();
      const { report } = await w.reportService.create(reporter, { user_id: target.userId, reason: 'harassment' });
      await w.reportService.act(mod, report.id, 'warn_user');
      w.clock.advance(60_000);
    }
  }

  it('bans for a week at the third warning, refuses the banned account, and lets the ban lapse', async () => {
    const w = moderationWorld({ warningsBeforeBan: 3, banDays: 7 });
    const target = await w.actor();
    await warnTimes(w, target, 2);
    await w.sanctions.assertNotBanned(target);
    await warnTimes(w, target, 1);
    await expect(w.sanctions.assertNotBanned(target)).rejects.toMatchObject({ kind: 'forbidden', code: 'banned' });
    const mine = await w.sanctions.mine(target);
    expect(mine.ban).toMatchObject({ is_permanent: false, expires_at: '2026-06-08 12:02:00' });
    expect(mine.warning_count).toBe(3);
    expect(w.notes.rows.filter((n) => n.user_id === target.userId).map((n) => n.type)).toEqual(['warning', 'warning', 'ban']);
    w.clock.set('2026-06-08T12:02:00Z');
    await w.sanctions.assertNotBanned(target);
    expect((await w.sanctions.mine(target)).ban).toBeNull();
  });

  it('counts only warnings after the last ban and within the window; the third ban is permanent', async () => {
    const w = moderationWorld({ warningsBeforeBan: 2, banDays: 1, permanentAfterBans: 2, warningWindowDays: 30 });
    const target = await w.actor();
    await warnTimes(w, target, 1);
    w.clock.advance(31 * 86_400_000); // the first warning falls out of the window
    await warnTimes(w, target, 1);
    expect(w.sanctionRepo.banRows).toEqual([]);
    await warnTimes(w, target, 1);
    expect(w.sanctionRepo.banRows).toHaveLength(1);
    w.clock.advance(2 * 86_400_000);
    await warnTimes(w, target, 1); // one warning after the ban: not yet
    expect(w.sanctionRepo.banRows).toHaveLength(1);
    await warnTimes(w, target, 1);
    w.clock.advance(2 * 86_400_000);
    await warnTimes(w, target, 2);
    expect(w.sanctionRepo.banRows.map((b) => b.is_permanent)).toEqual([false, false, true]);
    w.clock.advance(3650 * 86_400_000);
    await expect(w.sanctions.assertNotBanned(target)).rejects.toMatchObject({ code: 'banned' });
  });

  it('lists warnings and bans publicly with the accounts involved', async () => {
    const w = moderationWorld({ warningsBeforeBan: 1 });
    const target = await w.actor();
    await warnTimes(w, target, 1);
    const all = await w.sanctions.all(await w.actor(), page);
    expect(all.warnings).toEqual([
      expect.objectContaining({
        target: expect.objectContaining({ id: target.userId }),
        issued_by: expect.objectContaining({ id: expect.any(Number) }),
      }),
    ]);
    expect(all.bans).toEqual([
      expect.objectContaining({ ban: expect.objectContaining({ user_id: target.userId }), banned_by: expect.any(Object) }),
    ]);
    expect(all.bans_meta.total).toBe(1);
  });
});
