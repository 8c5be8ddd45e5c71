import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiResponse } from '../support/client.js';
import {
  aComment,
  aCommunityGroup,
  aFollow,
  aGroupComment,
  aGroupMembership,
  aGroupPost,
  aModerator,
  aPage,
  aPagePost,
  aPost,
  aReport,
  aUser,
  type TestUser,
} from '../support/mothers.js';
import { startTestServer, type TestServer } from '../support/server.js';

/**
 * reports.php (contract §25, docs/decisions/0012): members report, moderators judge by vote (three
 * votes for one outcome here, the default) or alone; a report resolves once.
 */
let t: TestServer;
let elector: TestUser;
beforeAll(async () => {
  t = await startTestServer({ env: { MODERATION_REPORT_VOTES: '3', MODERATION_ELECTION_VOTES: '1', MODERATION_VOTER_MIN_DAYS: '0' } });
  elector = await aUser(t.api);
});
afterAll(() => t.close());

async function moderators(n: number): Promise<TestUser[]> {
  const out: TestUser[] = [];
  for (let i = 0; i < n; i++) {
    const m = await aUser(t.api);
    await aModerator(t.api, m, [elector]);
    out.push(m);
  }
  return out;
}

async function report(id: number) {
  return t.database.db.selectFrom('reports').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

async function warningsOf(u: TestUser) {
  return t.database.db.selectFrom('user_warnings').selectAll().where('user_id', '=', u.id).execute();
}

async function notificationsOf(u: TestUser, type: string) {
  return t.database.db.selectFrom('notifications').selectAll().where('user_id', '=', u.id).where('type', '=', type).execute();
}

const vote = (m: TestUser, reportId: number, choice: string) =>
  t.api.post('reports.php', { report_id: reportId, vote: choice }, { token: m.token });

describe('reporting', () => {
  it('reports a post as the app’s quick report does, and lists the report with the contract’s keys and types', async () => {
    const [author, reporter] = [await aUser(t.api), await aUser(t.api)];
    const [mod] = await moderators(1);
    const post = await aPost(t.api, author, { content: 'something nasty' });
    const res = await t.api.post(
      'reports.php',
      { post_id: post.id, reason: 'other', description: 'Contenu inapproprié' },
      { token: reporter.token },
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      success: true,
      report_id: expect.any(Number),
      report: { post_id: post.id, user_id: null, status: 'pending' },
    });

    const queue = await t.api.get('reports.php?page=1', { token: mod.token });
    expect(queue.status).toBe(200);
    const item = queue.body.reports.find((r: { id: number }) => r.id === res.body.report_id);
    expect(item).toEqual({
      id: res.body.report_id,
      reason: 'other',
      description: 'Contenu inapproprié',
      post_id: post.id,
      post_type: 'post',
      user_id: null,
      post_content: 'something nasty',
      reported_user_id: author.id,
      reported_username: author.username,
      reporter_id: reporter.id,
      reporter_username: reporter.username,
      vote_count: 0,
      votes: { remove: 0, warn: 0, keep: 0 },
      my_vote: null,
      status: 'pending',
      resolution: null,
      resolved_at: null,
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/),
    });
    expect(queue.body.meta).toMatchObject({ current_page: 1, per_page: 20 });

    const onUser = await t.api.post('reports.php', { user_id: author.id, reason: 'harassment' }, { token: reporter.token });
    expect(onUser.status).toBe(200);
    expect(onUser.body.report).toMatchObject({ post_id: null, user_id: author.id, reported_username: author.username, post_content: null });
    // A member who is not a moderator sees their own reports only.
    const own = await t.api.get('reports.php', { token: reporter.token });
    expect(own.body.reports.map((r: { id: number }) => r.id)).toEqual([onUser.body.report_id, res.body.report_id]);
    expect((await t.api.get('reports.php', { token: author.token })).body.reports).toEqual([]);
  });

  it('refuses bad reports with 4xx and stores nothing', async () => {
    const [author, reporter, stranger] = [await aUser(t.api), await aUser(t.api), await aUser(t.api)];
    const post = await aPost(t.api, author);
    const before = (await t.database.db.selectFrom('reports').select('id').execute()).length;
    const cases: [unknown, number, string][] = [
      [{ post_id: post.id, reason: 'boring' }, 400, 'invalid_reason'],
      [{ post_id: post.id }, 400, 'invalid_input'],
      [{ reason: 'spam' }, 400, 'invalid_target'],
      [{ post_id: post.id, user_id: author.id, reason: 'spam' }, 400, 'invalid_target'],
      [{ user_id: reporter.id, reason: 'spam' }, 400, 'cannot_report_self'],
      [{ post_id: 99_999_999, reason: 'spam' }, 404, 'post_not_found'],
      [{ user_id: 99_999_999, reason: 'spam' }, 404, 'user_not_found'],
      [{ post_id: 'x', reason: 'spam' }, 400, 'invalid_input'],
      [{ post_id: post.id, reason: 'spam', description: 'x'.repeat(1001) }, 400, 'invalid_input'],
    ];
    for (const [body, status, code] of cases) {
      const res = await t.api.post('reports.php', body, { token: reporter.token });
      expect([res.status, res.body.code], JSON.stringify(body)).toEqual([status, code]);
    }
    expect((await t.api.post('reports.php', { post_id: post.id, reason: 'spam' }, { token: author.token })).body.code).toBe(
      'cannot_report_self',
    );
    expect((await t.api.post('reports.php', { post_id: post.id, reason: 'spam' })).status).toBe(401);
    // A private account's post is unknown to a member who does not follow it.
    await t.database.db.updateTable('users').set({ is_private: 1 }).where('id', '=', author.id).execute();
    expect((await t.api.post('reports.php', { post_id: post.id, reason: 'spam' }, { token: stranger.token })).status).toBe(404);
    expect((await t.database.db.selectFrom('reports').select('id').execute()).length).toBe(before);
  });

  it('shows moderators the reported post of a private account, and only through the report', async () => {
    const [author, follower, member] = [await aUser(t.api), await aUser(t.api), await aUser(t.api)];
    const [mod] = await moderators(1);
    await t.database.db.updateTable('users').set({ is_private: 1 }).where('id', '=', author.id).execute();
    await aFollow(t.api, follower, author);
    const post = await aPost(t.api, author, { content: 'for my followers only' });
    const { id } = await aReport(t.api, follower, { post_id: post.id }, { reason: 'hate_speech' });
    const queue = await t.api.get('reports.php', { token: mod.token });
    expect(queue.body.reports.find((r: { id: number }) => r.id === id)).toMatchObject({
      post_content: 'for my followers only',
      reported_username: author.username,
    });
    expect((await t.api.get('reports.php', { token: member.token })).body.reports).toEqual([]);
  });

  it('shows moderators a private group’s reported post and its thread while the report is pending, and removes it by vote', async () => {
    const [admin, member, outsider] = [await aUser(t.api), await aUser(t.api), await aUser(t.api)];
    const mods = await moderators(3);
    const group = await aCommunityGroup(t.api, admin, { privacy: 'private' });
    await aGroupMembership(t.api, group, [member], admin);
    const post = await aGroupPost(t.api, admin, group, { content: 'members only, and nasty' });
    await aGroupComment(t.api, member, post, { content: 'a reply in the thread' });
    const readAs = async (u: TestUser) => [
      (await t.api.get(`group_posts.php?id=${post.id}`, { token: u.token })).status,
      (await t.api.get(`group_comments.php?post_id=${post.id}`, { token: u.token })).status,
    ];
    // Before any report, a moderator is a stranger to a private group.
    expect(await readAs(mods[0])).toEqual([404, 404]);
    // Only who sees the post reports it.
    expect(
      (await t.api.post('reports.php', { post_id: post.id, post_type: 'group', reason: 'harassment' }, { token: outsider.token })).status,
    ).toBe(404);
    const res = await t.api.post('reports.php', { post_id: post.id, post_type: 'group', reason: 'harassment' }, { token: member.token });
    expect(res.status).toBe(200);
    expect(res.body.report).toMatchObject({ post_type: 'group', post_content: 'members only, and nasty', reported_user_id: admin.id });

    // Pending: moderators read it and its thread, but do not act in the group.
    expect(await readAs(mods[0])).toEqual([200, 200]);
    expect(await readAs(outsider)).toEqual([404, 404]);
    expect(
      (await t.api.post('group_comments.php', { post_id: post.id, content: 'a moderator barging in' }, { token: mods[0].token })).status,
    ).toBe(404);

    for (const m of mods) expect((await vote(m, res.body.report_id, 'remove')).status).toBe(200);
    expect(await report(res.body.report_id)).toMatchObject({ status: 'resolved', resolution: 'remove' });
    expect((await t.api.get(`group_posts.php?id=${post.id}`, { token: member.token })).status).toBe(404);
    expect(await warningsOf(admin)).toHaveLength(1);
    // Nothing left to judge: the moderators see no more of the group.
    expect(await readAs(mods[0])).toEqual([404, 404]);
  });

  it('takes reports on a page’s post (post_type page): the decision removes it through pages, apart from a wall post of the same id', async () => {
    const [owner, reader] = [await aUser(t.api), await aUser(t.api)];
    const mods = await moderators(3);
    const page = await aPage(t.api, owner);
    const pagePost = await aPagePost(t.api, owner, page, { content: 'page news, badly worded' });
    const res = await t.api.post(
      'reports.php',
      { post_id: pagePost.id, post_type: 'page', reason: 'hate_speech' },
      { token: reader.token },
    );
    expect(res.status).toBe(200);
    expect(res.body.report).toMatchObject({
      post_id: pagePost.id,
      post_type: 'page',
      post_content: 'page news, badly worded',
      reported_user_id: owner.id,
    });
    // Another kind of post, another target: unknown kinds and unseen posts are refused.
    expect(
      (await t.api.post('reports.php', { post_id: pagePost.id, post_type: 'story', reason: 'spam' }, { token: reader.token })).status,
    ).toBe(400);
    expect((await t.api.post('reports.php', { post_id: 999_999, post_type: 'page', reason: 'spam' }, { token: reader.token })).status).toBe(
      404,
    );

    for (const m of mods) expect((await vote(m, res.body.report_id, 'remove')).status).toBe(200);
    expect(await report(res.body.report_id)).toMatchObject({ status: 'resolved', resolution: 'remove', post_type: 'page' });
    expect((await t.api.get(`pages.php?path=${page.id}/posts`, { token: reader.token })).body.posts ?? []).toEqual([]);
    expect(await warningsOf(owner)).toHaveLength(1);
    // The log and the notifications link wall posts only: none here.
    const logged = await t.database.db
      .selectFrom('moderation_actions')
      .select(['post_id', 'action_type'])
      .where('report_id', '=', res.body.report_id)
      .execute();
    expect(logged).toEqual([{ post_id: null, action_type: 'delete_post' }]);
  });

  it('cancels one’s own pending report by id or by target, with a JSON body on DELETE', async () => {
    const [author, reporter, other] = [await aUser(t.api), await aUser(t.api), await aUser(t.api)];
    const post = await aPost(t.api, author);
    const r1 = await aReport(t.api, reporter, { post_id: post.id });
    expect((await t.api.delete('reports.php', { report_id: r1.id }, { token: other.token })).body.code).toBe('not_reporter');
    expect((await t.api.delete('reports.php', { report_id: r1.id, post_id: post.id }, { token: reporter.token })).status).toBe(400);
    const cancelled = await t.api.delete('reports.php', { post_id: post.id }, { token: reporter.token });
    expect([cancelled.status, cancelled.body.success]).toEqual([200, true]);
    expect((await report(r1.id)).status).toBe('cancelled');
    expect((await t.api.delete('reports.php', { report_id: r1.id }, { token: reporter.token })).status).toBe(409);
    expect((await t.api.delete('reports.php', { user_id: author.id }, { token: reporter.token })).status).toBe(404);
    // Cancelled, the same target may be reported again.
    const r2 = await aReport(t.api, reporter, { post_id: post.id });
    expect((await t.api.delete('reports.php', { report_id: r2.id }, { token: reporter.token })).status).toBe(200);
  });
});

describe('judging', () => {
  it('refuses moderator_action and votes from a member who is not a moderator, and nothing changes', async () => {
    const [author, reporter] = [await aUser(t.api), await aUser(t.api)];
    const post = await aPost(t.api, author, { content: 'still here' });
    const { id } = await aReport(t.api, reporter, { post_id: post.id });
    for (const body of [
      { moderator_action: 'delete_post', report_id: id },
      { moderator_action: 'warn_user', report_id: id, reason: 'because' },
      { report_id: id, vote: 'remove' },
    ]) {
      const res = await t.api.post('reports.php', body, { token: reporter.token });
      expect([res.status, res.body.code]).toEqual([403, 'not_moderator']);
    }
    expect(await report(id)).toMatchObject({ status: 'pending', votes_remove: 0, resolution: null });
    expect((await t.api.get(`posts.php?id=${post.id}`, { token: reporter.token })).status).toBe(200);
    expect(await warningsOf(author)).toEqual([]);
    expect(await t.database.db.selectFrom('report_votes').selectAll().where('report_id', '=', id).execute()).toEqual([]);
  });

  it('counts, changes and withdraws votes; the third `remove` removes the post through content, warns, logs and notifies once', async () => {
    const [author, reporter, commenter] = [await aUser(t.api), await aUser(t.api), await aUser(t.api)];
    const [m1, m2, m3, m4] = await moderators(4);
    const post = await aPost(t.api, author, { content: 'remove me' });
    await aComment(t.api, commenter, post, { content: 'a reply under it' });
    const { id } = await aReport(t.api, reporter, { post_id: post.id }, { reason: 'violence' });

    const first = await vote(m1, id, 'warn');
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ resolved: false, report: { my_vote: 'warn', vote_count: 1, votes: { warn: 1 } } });
    expect((await vote(m1, id, 'remove')).body.report).toMatchObject({ my_vote: 'remove', vote_count: 1, votes: { remove: 1, warn: 0 } });
    await vote(m2, id, 'remove');
    expect((await vote(m2, id, 'cancel')).body.report).toMatchObject({ my_vote: null, vote_count: 1 });
    await vote(m2, id, 'remove');
    const deciding = await vote(m3, id, 'remove');
    expect(deciding.body).toMatchObject({ resolved: true, report: { status: 'resolved', resolution: 'remove', vote_count: 3 } });
    expect(deciding.body.report.resolved_at).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    const late = await vote(m4, id, 'keep');
    expect([late.status, late.body.code]).toEqual([409, 'report_not_pending']);

    expect((await t.api.get(`posts.php?id=${post.id}`, { token: reporter.token })).status).toBe(404);
    expect(await t.database.db.selectFrom('comments').select('id').where('post_id', '=', post.id).execute()).toEqual([]);
    expect(await warningsOf(author)).toEqual([expect.objectContaining({ issued_by: m3.id, report_id: id })]);
    expect(await notificationsOf(author, 'warning')).toHaveLength(1);
    const actions = await t.api.get('moderators.php?type=actions', { token: reporter.token });
    expect(actions.body.actions[0]).toMatchObject({
      action_type: 'delete_post',
      moderator_username: m3.username,
      target_username: author.username,
      post_id: post.id,
      by_vote: true,
    });
    const resolved = await t.api.get('reports.php?status=resolved', { token: m1.token });
    expect(resolved.body.reports.find((r: { id: number }) => r.id === id)).toMatchObject({ my_vote: 'remove', status: 'resolved' });
  });

  it('closes a report voted `keep` without a sanction and tells the reporter', async () => {
    const [author, reporter] = [await aUser(t.api), await aUser(t.api)];
    const mods = await moderators(3);
    const post = await aPost(t.api, author);
    const { id } = await aReport(t.api, reporter, { post_id: post.id });
    for (const m of mods) expect((await vote(m, id, 'keep')).status).toBe(200);
    expect(await report(id)).toMatchObject({ status: 'resolved', resolution: 'keep' });
    expect((await t.api.get(`posts.php?id=${post.id}`, { token: reporter.token })).status).toBe(200);
    expect(await warningsOf(author)).toEqual([]);
    expect(await notificationsOf(reporter, 'report_closed')).toHaveLength(1);
  });

  it('lets one moderator warn about an account with their own words; `remove` and delete_post need a post', async () => {
    const [target, reporter] = [await aUser(t.api), await aUser(t.api)];
    const [mod] = await moderators(1);
    const { id } = await aReport(t.api, reporter, { user_id: target.id }, { reason: 'harassment' });
    expect((await vote(mod, id, 'remove')).body.code).toBe('invalid_vote');
    expect((await t.api.post('reports.php', { moderator_action: 'delete_post', report_id: id }, { token: mod.token })).body.code).toBe(
      'invalid_action',
    );
    expect((await t.api.post('reports.php', { moderator_action: 'warn_user' }, { token: mod.token })).status).toBe(400);
    expect((await t.api.post('reports.php', { moderator_action: 'ban_forever', report_id: id }, { token: mod.token })).status).toBe(400);
    const res = await t.api.post(
      'reports.php',
      { moderator_action: 'warn_user', report_id: id, reason: 'Stop the insults' },
      { token: mod.token },
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ action: 'warn_user', report: { status: 'resolved', resolution: 'warn' } });
    expect(await warningsOf(target)).toEqual([expect.objectContaining({ reason: 'Stop the insults', issued_by: mod.id })]);
    // A moderator does not judge a report about themselves.
    const aboutMod = await aReport(t.api, reporter, { user_id: mod.id });
    expect((await vote(mod, aboutMod.id, 'keep')).body.code).toBe('own_case');
  });
});

describe('concurrency', () => {
  /** Fires the requests at once; none may fail on our side. */
  async function burst(requests: (() => Promise<ApiResponse>)[]): Promise<ApiResponse[]> {
    const answers = await Promise.all(requests.map((r) => r()));
    expect(answers.filter((a) => a.status >= 500).map((a) => JSON.stringify(a.body))).toEqual([]);
    return answers;
  }

  it('resolves a report exactly once when 20 moderators vote at the same moment, with one warning and one notification', async () => {
    const [author, reporter] = [await aUser(t.api), await aUser(t.api)];
    const mods = await moderators(20);
    const post = await aPost(t.api, author, { content: 'contested' });
    const { id } = await aReport(t.api, reporter, { post_id: post.id });
    const answers = await burst(mods.map((m) => () => vote(m, id, 'remove')));
    const ok = answers.filter((a) => a.status === 200);
    expect(ok).toHaveLength(3);
    expect(ok.filter((a) => a.body.resolved === true)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 409).map((a) => a.body.code)).toEqual(Array(17).fill('report_not_pending'));
    expect(await report(id)).toMatchObject({ status: 'resolved', resolution: 'remove', votes_remove: 3 });
    expect(await t.database.db.selectFrom('report_votes').select('voter_id').where('report_id', '=', id).execute()).toHaveLength(3);
    expect(await warningsOf(author)).toHaveLength(1);
    expect(await t.database.db.selectFrom('moderation_actions').select('id').where('report_id', '=', id).execute()).toHaveLength(1);
    expect(await notificationsOf(author, 'warning')).toHaveLength(1);
    expect((await t.api.get(`posts.php?id=${post.id}`, { token: reporter.token })).status).toBe(404);
  });

  it('bans once when 20 warnings about one account are decided at the same moment', async () => {
    const target = await aUser(t.api);
    const [mod] = await moderators(1);
    const reports: number[] = [];
    for (let i = 0; i < 20; i++) reports.push((await aReport(t.api, await aUser(t.api), { user_id: target.id }, { reason: 'spam' })).id);
    const answers = await burst(
      reports.map((id) => () => t.api.post('reports.php', { moderator_action: 'warn_user', report_id: id }, { token: mod.token })),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(20);
    expect(await warningsOf(target)).toHaveLength(20);
    // The third warning bans (the default); the ones after it find the account banned already.
    expect(await t.database.db.selectFrom('user_bans').select('id').where('user_id', '=', target.id).execute()).toHaveLength(1);
    expect(await notificationsOf(target, 'ban')).toHaveLength(1);
    expect(await notificationsOf(target, 'warning')).toHaveLength(19);
  });

  it('stores one report when the same member sends it 20 times at once', async () => {
    const [author, reporter] = [await aUser(t.api), await aUser(t.api)];
    const post = await aPost(t.api, author);
    const answers = await burst(
      Array.from({ length: 20 }, () => () => t.api.post('reports.php', { post_id: post.id, reason: 'spam' }, { token: reporter.token })),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 409).map((a) => a.body.code)).toEqual(Array(19).fill('already_reported'));
    expect(await t.database.db.selectFrom('reports').select('id').where('post_id', '=', post.id).execute()).toHaveLength(1);
  });
});
