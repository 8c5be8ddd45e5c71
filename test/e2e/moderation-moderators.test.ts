import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiResponse } from '../support/client.js';
import { aModerator, aUser, type TestUser } from '../support/mothers.js';
import { startTestServer, type TestServer } from '../support/server.js';

/**
 * moderators.php (contract §26, docs/decisions/0012): candidacies, elections by the members (three
 * votes for here), recall (three against, more than for), the lists and the action log.
 */
let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ env: { MODERATION_ELECTION_VOTES: '3', MODERATION_RECALL_VOTES: '3', MODERATION_VOTER_MIN_DAYS: '0' } });
});
afterAll(() => t.close());

const users = (n: number) => Promise.all(Array.from({ length: n }, () => aUser(t.api)));
const apply = (u: TestUser, motivation = 'I read every report') =>
  t.api.post('moderators.php?action=apply', { motivation }, { token: u.token });
const vote = (voter: TestUser, candidate: TestUser, choice: 'for' | 'against') =>
  t.api.post('moderators.php?action=vote_moderator', { candidate_id: candidate.id, vote: choice }, { token: voter.token });

async function isModerator(u: TestUser): Promise<boolean> {
  const row = await t.database.db.selectFrom('users').select('is_moderator').where('id', '=', u.id).executeTakeFirstOrThrow();
  return Number(row.is_moderator) === 1;
}

describe('candidacies', () => {
  it('applies with a motivation and lists the candidate with the contract’s keys and types', async () => {
    const [cand, viewer] = await users(2);
    const res = await apply(cand, 'I will be fair');
    expect(res.status).toBe(200);
    expect(res.body.candidate).toEqual({
      user_id: cand.id,
      username: cand.username,
      avatar: 'default.svg',
      motivation: 'I will be fair',
      votes_for: 0,
      votes_against: 0,
      my_vote: null,
      status: 'candidate',
      elected_at: null,
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/),
    });
    await vote(viewer, cand, 'against');
    const list = await t.api.get('moderators.php?type=candidates', { token: viewer.token });
    expect(list.status).toBe(200);
    expect(list.body.candidates.find((c: { user_id: number }) => c.user_id === cand.id)).toMatchObject({
      votes_against: 1,
      my_vote: 'against',
    });
    expect(list.body.meta).toMatchObject({ current_page: 1 });
    // Without type: the first page of each list.
    const all = await t.api.get('moderators.php', { token: viewer.token });
    expect(Object.keys(all.body).sort()).toEqual(['actions', 'candidates', 'moderators', 'success']);
  });

  it('answers a second candidacy with 200 `success: false` and the message the app matches; a moderator the same', async () => {
    const [cand, ...voters] = await users(4);
    expect((await apply(cand)).status).toBe(200);
    const again = await apply(cand);
    expect([again.status, again.body]).toEqual([
      200,
      { success: false, error: 'Already a candidate', message: 'Already a candidate', code: 'already_candidate' },
    ]);
    for (const v of voters) await vote(v, cand, 'for');
    const asModerator = await apply(cand);
    expect([asModerator.status, asModerator.body.success, asModerator.body.message]).toEqual([200, false, 'Already a moderator']);
    expect(await t.database.db.selectFrom('moderator_candidacies').select('id').where('user_id', '=', cand.id).execute()).toHaveLength(1);
  });

  it('refuses an empty motivation, a self vote, an unknown candidate and a bad vote with 4xx', async () => {
    const [cand, voter] = await users(2);
    expect((await apply(cand, '   ')).status).toBe(400);
    expect((await t.api.post('moderators.php?action=apply', {}, { token: cand.token })).status).toBe(400);
    await apply(cand);
    expect((await vote(cand, cand, 'for')).body.code).toBe('cannot_vote_self');
    expect((await vote(voter, { ...cand, id: 99_999_999 }, 'for')).status).toBe(404);
    expect(
      (await t.api.post('moderators.php?action=vote_moderator', { candidate_id: cand.id, vote: 'maybe' }, { token: voter.token })).status,
    ).toBe(400);
    expect((await t.api.post('moderators.php?action=vote_moderator', { candidate_id: cand.id }, { token: voter.token })).status).toBe(400);
    expect(await t.database.db.selectFrom('moderator_votes').selectAll().where('voter_id', '=', voter.id).execute()).toEqual([]);
  });

  it('takes the spec’s form without action: motivation applies, candidate_id votes', async () => {
    const [cand, voter] = await users(2);
    const applied = await t.api.post('moderators.php', { motivation: 'spec form' }, { token: cand.token });
    expect([applied.status, applied.body.candidate?.status]).toEqual([200, 'candidate']);
    const voted = await t.api.post('moderators.php', { candidate_id: cand.id, vote: 'for' }, { token: voter.token });
    expect(voted.body).toMatchObject({ success: true, elected: false, revoked: false, candidate: { votes_for: 1, my_vote: 'for' } });
    expect((await t.api.post('moderators.php', { candidate_id: cand.id }, { token: voter.token })).status).toBe(400);
  });

  it('withdraws a candidacy, and steps an elected moderator down, with DELETE', async () => {
    const [cand, ...voters] = await users(4);
    expect((await t.api.delete('moderators.php', undefined, { token: cand.token })).status).toBe(404);
    await apply(cand);
    expect((await t.api.delete('moderators.php', undefined, { token: cand.token })).body).toMatchObject({
      success: true,
      status: 'withdrawn',
    });
    await aModerator(t.api, cand, voters);
    expect(await isModerator(cand)).toBe(true);
    expect((await t.api.delete('moderators.php', undefined, { token: cand.token })).body).toMatchObject({ status: 'resigned' });
    expect(await isModerator(cand)).toBe(false);
  });
});

describe('elections and revocations', () => {
  it('elects at the third vote for, answers elected: true once, and lists the new moderator', async () => {
    const [cand, a, b, c, d] = await users(5);
    await apply(cand);
    expect((await vote(a, cand, 'for')).body).toMatchObject({ elected: false, revoked: false });
    await vote(b, cand, 'against');
    expect((await vote(b, cand, 'for')).body.candidate).toMatchObject({ votes_for: 2, votes_against: 0, my_vote: 'for' });
    const deciding = await vote(c, cand, 'for');
    expect(deciding.body).toMatchObject({ success: true, elected: true, revoked: false, candidate: { status: 'elected', votes_for: 3 } });
    expect((await vote(d, cand, 'for')).body.elected).toBe(false);
    expect(await isModerator(cand)).toBe(true);
    const profile = await t.api.get('users.php', { token: cand.token });
    expect(profile.body.is_moderator).toBe(true);
    const list = await t.api.get('moderators.php?type=moderators', { token: a.token });
    expect(list.body.moderators.find((m: { user_id: number }) => m.user_id === cand.id)).toMatchObject({
      status: 'elected',
      my_vote: 'for',
      elected_at: expect.any(String),
    });
    const notes = await t.database.db
      .selectFrom('notifications')
      .select('type')
      .where('user_id', '=', cand.id)
      .where('type', '=', 'moderator_elected')
      .execute();
    expect(notes).toHaveLength(1);
  });

  it('revokes a moderator when three votes against outnumber the votes for', async () => {
    const [cand, f1, f2, f3, x1, x2, x3, x4] = await users(8);
    await aModerator(t.api, cand, [f1, f2, f3]);
    await vote(f1, cand, 'against'); // for 2, against 1
    await vote(x1, cand, 'against'); // for 2, against 2
    expect((await vote(x2, cand, 'against')).body).toMatchObject({ elected: false, revoked: true });
    expect(await isModerator(cand)).toBe(false);
    expect((await vote(x3, cand, 'against')).status).toBe(404);
    expect(
      (await t.api.get('moderators.php?type=moderators', { token: x4.token })).body.moderators.map((m: { user_id: number }) => m.user_id),
    ).not.toContain(cand.id);
    // A revoked moderator may run again, from zero votes.
    expect((await apply(cand)).body.candidate).toMatchObject({ votes_for: 0, votes_against: 0, status: 'candidate' });
  });

  it('lists admins among the moderators, without a mandate', async () => {
    const [admin, viewer] = await users(2);
    await t.database.db.updateTable('users').set({ is_admin: 1 }).where('id', '=', admin.id).execute();
    const list = await t.api.get('moderators.php?type=moderators&per_page=100', { token: viewer.token });
    expect(list.body.moderators.find((m: { user_id: number }) => m.user_id === admin.id)).toMatchObject({
      status: 'appointed',
      motivation: '',
      votes_for: 0,
    });
    expect((await apply(admin)).body.message).toBe('Already a moderator');
  });

  it('refuses election votes from accounts younger than the configured age', async () => {
    const young = await startTestServer({ env: { MODERATION_VOTER_MIN_DAYS: '7' } });
    try {
      const [cand, voter] = [await aUser(young.api), await aUser(young.api)];
      await young.api.post('moderators.php?action=apply', { motivation: 'me' }, { token: cand.token });
      const res = await young.api.post(
        'moderators.php?action=vote_moderator',
        { candidate_id: cand.id, vote: 'for' },
        { token: voter.token },
      );
      expect([res.status, res.body.code]).toEqual([403, 'account_too_new']);
    } finally {
      await young.close();
    }
  });
});

describe('concurrency', () => {
  async function burst(requests: (() => Promise<ApiResponse>)[]): Promise<ApiResponse[]> {
    const answers = await Promise.all(requests.map((r) => r()));
    expect(answers.filter((a) => a.status >= 500).map((a) => JSON.stringify(a.body))).toEqual([]);
    return answers;
  }

  it('elects once when 20 members vote for at the same moment', async () => {
    const [cand, ...voters] = await users(21);
    await apply(cand);
    const answers = await burst(voters.map((v) => () => vote(v, cand, 'for')));
    expect(answers.every((a) => a.status === 200)).toBe(true);
    expect(answers.filter((a) => a.body.elected === true)).toHaveLength(1);
    const row = await t.database.db
      .selectFrom('moderator_candidacies')
      .selectAll()
      .where('user_id', '=', cand.id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'elected', votes_for: 20, votes_against: 0 });
    expect(await isModerator(cand)).toBe(true);
    const notes = await t.database.db
      .selectFrom('notifications')
      .select('id')
      .where('user_id', '=', cand.id)
      .where('type', '=', 'moderator_elected')
      .execute();
    expect(notes).toHaveLength(1);
  });

  it('opens one candidacy when the same member applies 20 times at once', async () => {
    const [cand] = await users(1);
    const answers = await burst(Array.from({ length: 20 }, () => () => apply(cand)));
    expect(answers.filter((a) => a.body.success === true)).toHaveLength(1);
    expect(answers.filter((a) => a.body.code === 'already_candidate')).toHaveLength(19);
    expect(await t.database.db.selectFrom('moderator_candidacies').select('id').where('user_id', '=', cand.id).execute()).toHaveLength(1);
  });
});
