import { ManualClock } from '@plaza/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aModerator, aPost, aReport, aUser, type TestUser } from '../support/mothers.js';
import { startTestServer, type TestServer } from '../support/server.js';

/**
 * sanctions.php (contract §27, docs/decisions/0012): warnings pile up into bans (two warnings ban for a
 * week here; after one temporary ban the next is permanent); a banned account is refused everywhere
 * but login and sanctions.php?type=mine, until a temporary ban lapses by itself.
 */
const clock = new ManualClock('2026-03-01T10:00:00Z');
let t: TestServer;
let mod: TestUser;
beforeAll(async () => {
  t = await startTestServer({
    clock,
    env: {
      MODERATION_ELECTION_VOTES: '1',
      MODERATION_VOTER_MIN_DAYS: '0',
      MODERATION_WARNINGS_BEFORE_BAN: '2',
      MODERATION_BAN_DAYS: '7',
      MODERATION_PERMANENT_AFTER_BANS: '1',
    },
  });
  mod = await aUser(t.api);
  await aModerator(t.api, mod, [await aUser(t.api)]);
});
afterAll(() => t.close());

/** A report on `target` by a fresh member, then the moderator's warning; the clock moves a minute. */
async function warn(target: TestUser, reason = 'Insults') {
  const { id } = await aReport(t.api, await aUser(t.api), { user_id: target.id }, { reason: 'harassment' });
  const res = await t.api.post('reports.php', { moderator_action: 'warn_user', report_id: id, reason }, { token: mod.token });
  expect(res.status).toBe(200);
  clock.advance(60_000);
}

const mine = (u: TestUser) => t.api.get('sanctions.php?type=mine', { token: u.token });

describe('sanctions.php', () => {
  it('answers type=mine with a strict boolean and no ban for an account in good standing', async () => {
    const u = await aUser(t.api);
    const res = await mine(u);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, is_banned: false, ban: null, warnings: [], warning_count: 0 });
    // The spec's form without type is the same list.
    expect((await t.api.get('sanctions.php', { token: u.token })).body).toEqual(res.body);
    expect((await t.api.get('sanctions.php?type=mine')).status).toBe(401);
    expect((await t.api.get('sanctions.php?type=everything', { token: u.token })).status).toBe(400);
  });

  it('bans at the second warning: 403 `banned` everywhere but login and type=mine, until the ban lapses', async () => {
    const target = await aUser(t.api);
    await warn(target, 'First insult');
    expect((await t.api.get('users.php', { token: target.token })).status).toBe(200);
    expect((await mine(target)).body).toMatchObject({ is_banned: false, warning_count: 1, warnings: [{ reason: 'First insult' }] });
    await warn(target, 'Second insult');

    const refused = [
      await t.api.get('users.php', { token: target.token }),
      await t.api.post('posts.php', { content: 'let me speak' }, { token: target.token }),
      await t.api.get('sanctions.php?type=all', { token: target.token }),
      await t.api.post(
        'feature_suggestions.php',
        { title: 'Unban me', description: 'Please lift my ban right away' },
        { token: target.token },
      ),
    ];
    for (const res of refused) expect([res.status, res.body.code, res.body.success]).toEqual([403, 'banned', false]);
    expect(refused[0].body.message).toMatch(/banned until 2026-03-08 10:01:00 UTC/);

    const own = await mine(target);
    expect(own.status).toBe(200);
    expect(own.body.is_banned).toBe(true);
    expect(own.body.ban).toEqual({
      reason: expect.stringContaining('Second insult'),
      is_permanent: false,
      expires_at: '2026-03-08 10:01:00',
      created_at: '2026-03-01 10:01:00',
    });
    const login = await t.api.post('auth.php', { username: target.username, password: target.password });
    expect([login.status, typeof login.body.token]).toEqual([200, 'string']);
    const notes = await t.database.db.selectFrom('notifications').select('type').where('user_id', '=', target.id).execute();
    expect(notes.map((n) => n.type)).toEqual(['warning', 'ban']);

    // A week later the ban has lapsed by itself: no job, no request needed.
    clock.set('2026-03-08T10:01:00Z');
    expect((await t.api.get('users.php', { token: target.token })).status).toBe(200);
    expect((await mine(target)).body).toMatchObject({ is_banned: false, ban: null, warning_count: 2 });

    // Two more warnings after that ban: the second ban is permanent.
    await warn(target);
    await warn(target);
    const permanent = await mine(target);
    expect(permanent.body).toMatchObject({ is_banned: true, ban: { is_permanent: true, expires_at: null } });
    // Ten years on, a fresh login still meets the ban.
    clock.advance(3650 * 86_400_000);
    const relog = await t.api.post('auth.php', { username: target.username, password: target.password });
    expect((await t.api.get('users.php', { token: relog.body.token })).body.code).toBe('banned');
    clock.set('2026-03-08T11:00:00Z');
  });

  it('lists public warnings and bans with the contract’s keys and types', async () => {
    const target = await aUser(t.api);
    await warn(target, 'Spam again');
    await warn(target, 'Spam once more');
    const viewer = await aUser(t.api);
    const res = await t.api.get('sanctions.php?type=all&page=1', { token: viewer.token });
    expect(res.status).toBe(200);
    expect(res.body.warnings[0]).toEqual({
      id: expect.any(Number),
      user_id: target.id,
      target_username: target.username,
      target_avatar: 'default.svg',
      issued_by_username: mod.username,
      reason: 'Spam once more',
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/),
    });
    expect(res.body.bans[0]).toEqual({
      id: expect.any(Number),
      user_id: target.id,
      target_username: target.username,
      target_avatar: 'default.svg',
      banned_by_username: mod.username,
      reason: expect.stringContaining('2 warnings within 90 days'),
      is_permanent: false,
      expires_at: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/),
      is_active: true,
      created_at: expect.any(String),
    });
    expect(res.body.warnings_meta).toMatchObject({ current_page: 1, per_page: 20 });
    expect(res.body.bans_meta.total).toBeGreaterThanOrEqual(1);
  });

  it('removes a post and warns its author when a moderator deletes it; the warning counts toward a ban', async () => {
    const [author, reporter] = [await aUser(t.api), await aUser(t.api)];
    const post = await aPost(t.api, author, { content: 'bad' });
    const { id } = await aReport(t.api, reporter, { post_id: post.id });
    const res = await t.api.post('reports.php', { moderator_action: 'delete_post', report_id: id }, { token: mod.token });
    expect(res.body).toMatchObject({ success: true, action: 'delete_post', report: { resolution: 'remove' } });
    expect((await t.api.get(`posts.php?id=${post.id}`, { token: reporter.token })).status).toBe(404);
    expect((await mine(author)).body).toMatchObject({
      is_banned: false,
      warning_count: 1,
      warnings: [{ reason: expect.stringContaining('post removed') }],
    });
  });
});
