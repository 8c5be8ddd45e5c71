import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiResponse } from '../support/client.js';
import { aModerator, aSuggestion, aUser, type TestUser } from '../support/mothers.js';
import { startTestServer, type TestServer } from '../support/server.js';

/** feature_suggestions.php (contract §28, §35.4). */
let t: TestServer;
let mod: TestUser;
beforeAll(async () => {
  t = await startTestServer({ env: { MODERATION_ELECTION_VOTES: '1', MODERATION_VOTER_MIN_DAYS: '0' } });
  mod = await aUser(t.api);
  await aModerator(t.api, mod, [await aUser(t.api)]);
});
afterAll(() => t.close());

const TIME = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/;
const vote = (u: TestUser, id: number, v: number) =>
  t.api.post('feature_suggestions.php?action=vote', { suggestion_id: id, vote: v }, { token: u.token });
const setStatus = (u: TestUser, id: number, status: string, admin_response?: string) =>
  t.api.post('feature_suggestions.php?action=update_status', { suggestion_id: id, status, admin_response }, { token: u.token });

async function row(id: number) {
  return t.database.db.selectFrom('feature_suggestions').selectAll().where('id', '=', id).executeTakeFirst();
}

describe('feature_suggestions.php', () => {
  it('creates with the contract’s keys and types, and refuses short titles and descriptions', async () => {
    const me = await aUser(t.api);
    const res = await t.api.post(
      'feature_suggestions.php',
      { title: 'Offline mode', description: 'Read the feed without a connection' },
      { token: me.token },
    );
    expect(res.status).toBe(200);
    expect(res.body.suggestion).toEqual({
      id: expect.any(Number),
      user_id: me.id,
      username: me.username,
      avatar: 'default.svg',
      title: 'Offline mode',
      description: 'Read the feed without a connection',
      status: 'pending',
      admin_response: null,
      votes_up: 0,
      votes_down: 0,
      score: 0,
      comment_count: 0,
      my_vote: null,
      created_at: expect.stringMatching(TIME),
      updated_at: expect.stringMatching(TIME),
    });
    const before = (await t.database.db.selectFrom('feature_suggestions').select('id').execute()).length;
    for (const body of [
      { title: 'Tiny', description: 'A description that is long enough' },
      { title: 'Long enough', description: 'too short' },
      { title: 'Missing description' },
      { title: 12345, description: 'A description that is long enough' },
    ]) {
      expect((await t.api.post('feature_suggestions.php', body, { token: me.token })).status, JSON.stringify(body)).toBe(400);
    }
    expect((await t.database.db.selectFrom('feature_suggestions').select('id').execute()).length).toBe(before);
  });

  it('toggles a vote sent twice and replaces it by the opposite one, answering the updated suggestion', async () => {
    const [me, you] = [await aUser(t.api), await aUser(t.api)];
    const { id } = await aSuggestion(t.api, me);
    expect((await vote(me, id, 1)).body.suggestion).toMatchObject({ id, votes_up: 1, votes_down: 0, score: 1, my_vote: 1 });
    expect((await vote(me, id, 1)).body.suggestion).toMatchObject({ votes_up: 0, score: 0, my_vote: null });
    await vote(you, id, -1);
    expect((await vote(me, id, -1)).body.suggestion).toMatchObject({ votes_up: 0, votes_down: 2, score: -2, my_vote: -1 });
    expect((await vote(me, id, 1)).body.suggestion).toMatchObject({ votes_up: 1, votes_down: 1, score: 0, my_vote: 1 });
    for (const bad of [0, 2, 'up']) expect((await vote(me, id, bad as number)).status).toBe(400);
    expect((await vote(me, 99_999_999, 1)).status).toBe(404);
  });

  it('filters popular by score, recent by date, planned with in progress, and done; counts per status', async () => {
    const [me, a, b] = [await aUser(t.api), await aUser(t.api), await aUser(t.api)];
    const s1 = await aSuggestion(t.api, me, { title: 'Filter one' });
    const s2 = await aSuggestion(t.api, me, { title: 'Filter two' });
    const s3 = await aSuggestion(t.api, me, { title: 'Filter three' });
    for (const u of [a, b]) await vote(u, s2.id, 1);
    await vote(a, s3.id, 1);
    const ids = async (filter: string) => {
      const res = await t.api.get(`feature_suggestions.php?filter=${filter}&page=1&per_page=100`, { token: me.token });
      expect(res.status).toBe(200);
      return res.body.suggestions.map((s: { id: number }) => s.id).filter((id: number) => [s1.id, s2.id, s3.id].includes(id));
    };
    expect(await ids('popular')).toEqual([s2.id, s3.id, s1.id]);
    expect(await ids('recent')).toEqual([s3.id, s2.id, s1.id]);
    await setStatus(mod, s1.id, 'in_progress');
    await setStatus(mod, s3.id, 'planned');
    await setStatus(mod, s2.id, 'done', 'Shipped in 2.1');
    expect(await ids('planned')).toEqual([s3.id, s1.id]);
    expect(await ids('done')).toEqual([s2.id]);
    const stats = await t.api.get('feature_suggestions.php?action=stats', { token: me.token });
    expect(stats.body.stats).toEqual({
      total: expect.any(Number),
      pending: expect.any(Number),
      planned: expect.any(Number),
      in_progress: expect.any(Number),
      done: expect.any(Number),
      rejected: expect.any(Number),
    });
    const s = stats.body.stats;
    expect(s.total).toBe(s.pending + s.planned + s.in_progress + s.done + s.rejected);
    expect(s.done).toBeGreaterThanOrEqual(1);
    const list = await t.api.get('feature_suggestions.php?per_page=1', { token: me.token });
    expect(list.body.suggestions).toHaveLength(1);
    expect(list.body.meta.per_page).toBe(1);
  });

  it('refuses update_status from a member who is neither moderator nor admin, and nothing changes', async () => {
    const [me, other, admin] = [await aUser(t.api), await aUser(t.api), await aUser(t.api)];
    const { id } = await aSuggestion(t.api, me);
    for (const u of [me, other]) {
      const res = await setStatus(u, id, 'planned', 'Sure');
      expect([res.status, res.body.code]).toEqual([403, 'not_moderator']);
    }
    expect(await row(id)).toMatchObject({ status: 'pending', admin_response: null });
    expect((await setStatus(mod, id, 'someday')).status).toBe(400);
    const byMod = await setStatus(mod, id, 'planned', 'Next release');
    expect(byMod.body.suggestion).toMatchObject({ status: 'planned', admin_response: 'Next release' });
    await t.database.db.updateTable('users').set({ is_admin: 1 }).where('id', '=', admin.id).execute();
    expect((await setStatus(admin, id, 'rejected', 'Out of scope')).body.suggestion).toMatchObject({
      status: 'rejected',
      admin_response: 'Out of scope',
    });
    const notes = await t.database.db
      .selectFrom('notifications')
      .select('type')
      .where('user_id', '=', me.id)
      .where('type', '=', 'suggestion_status')
      .execute();
    expect(notes).toHaveLength(2);
  });

  it('comments, and shows the detail with its comments oldest first', async () => {
    const [me, you] = [await aUser(t.api), await aUser(t.api)];
    const { id } = await aSuggestion(t.api, me);
    const c = await t.api.post(
      'feature_suggestions.php?action=comment',
      { suggestion_id: id, content: 'Yes please' },
      { token: you.token },
    );
    expect(c.status).toBe(200);
    expect(c.body.comment).toEqual({
      id: expect.any(Number),
      suggestion_id: id,
      user_id: you.id,
      username: you.username,
      avatar: 'default.svg',
      content: 'Yes please',
      created_at: expect.stringMatching(TIME),
    });
    await t.api.post('feature_suggestions.php?action=comment', { suggestion_id: id, content: 'Thanks!' }, { token: me.token });
    expect(
      (await t.api.post('feature_suggestions.php?action=comment', { suggestion_id: id, content: 'no' }, { token: me.token })).status,
    ).toBe(400);
    expect(
      (
        await t.api.post(
          'feature_suggestions.php?action=comment',
          { suggestion_id: 99_999_999, content: 'Hello there' },
          { token: me.token },
        )
      ).status,
    ).toBe(404);
    const detail = await t.api.get(`feature_suggestions.php?id=${id}`, { token: me.token });
    expect(detail.status).toBe(200);
    expect(detail.body.suggestion).toMatchObject({ id, comment_count: 2 });
    expect(detail.body.comments.map((x: { content: string }) => x.content)).toEqual(['Yes please', 'Thanks!']);
    expect((await t.api.get('feature_suggestions.php?id=99999999', { token: me.token })).status).toBe(404);
  });

  it('deletes for its author, a moderator or an admin only', async () => {
    const [me, other] = [await aUser(t.api), await aUser(t.api)];
    const s1 = await aSuggestion(t.api, me);
    const s2 = await aSuggestion(t.api, me);
    expect((await t.api.delete(`feature_suggestions.php?id=${s1.id}`, undefined, { token: other.token })).status).toBe(403);
    expect(await row(s1.id)).toBeDefined();
    expect((await t.api.delete(`feature_suggestions.php?id=${s1.id}`, undefined, { token: me.token })).status).toBe(200);
    expect((await t.api.delete(`feature_suggestions.php?id=${s2.id}`, undefined, { token: mod.token })).status).toBe(200);
    expect(await row(s1.id)).toBeUndefined();
    expect(await row(s2.id)).toBeUndefined();
    expect((await t.api.delete(`feature_suggestions.php?id=${s1.id}`, undefined, { token: me.token })).status).toBe(404);
  });

  it('keeps the counters right when 20 votes of one member and 20 of twenty members arrive at once', async () => {
    const me = await aUser(t.api);
    const { id } = await aSuggestion(t.api, me);
    const check = (answers: ApiResponse[]) =>
      expect(answers.filter((a) => a.status !== 200).map((a) => `${a.status} ${JSON.stringify(a.body)}`)).toEqual([]);
    // Twenty toggles of the same vote: an even number leaves no vote.
    check(await Promise.all(Array.from({ length: 20 }, () => vote(me, id, 1))));
    expect(await row(id)).toMatchObject({ votes_up: 0, votes_down: 0, score: 0 });
    const voters = await Promise.all(Array.from({ length: 20 }, () => aUser(t.api)));
    check(await Promise.all(voters.map((v, i) => vote(v, id, i % 4 === 0 ? -1 : 1))));
    expect(await row(id)).toMatchObject({ votes_up: 15, votes_down: 5, score: 10 });
    const stored = await t.database.db.selectFrom('feature_suggestion_votes').select('vote').where('suggestion_id', '=', id).execute();
    expect(stored).toHaveLength(20);
  });
});
