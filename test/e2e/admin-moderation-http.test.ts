import { OtplibTotp } from '@plaza/adapters-integrations';
import { Moderation, resolve } from '@plaza/server';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { FormClient, text } from '../support/form-client.js';
import { aPost, aReport, aUser, type TestUser } from '../support/mothers.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { uploadedMedia } from '../support/uploads.js';

/**
 * Instance moderation in the admin panel over plain HTTP (docs/decisions/0105; the browser suite is
 * admin-moderation.test.ts): the Users pages (search, an account's page, suspend, unsuspend, reset
 * two-factor, delete) and the Reports page, each action's refusals (role, CSRF), its line in the
 * moderators' log, and concurrent clicks that change once.
 */
let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ env: { MODERATION_REPORT_VOTES: '2' } });
});
afterAll(() => t?.close());

const db = () => t.database.db;
const setFlags = (id: number, flags: { is_admin?: number; is_moderator?: number }) =>
  db().updateTable('users').set(flags).where('id', '=', id).execute();

async function withRole(role: 'admin' | 'moderator' | null): Promise<TestUser> {
  const u = await aUser(t.api);
  if (role === 'admin') await setFlags(u.id, { is_admin: 1 });
  if (role === 'moderator') await setFlags(u.id, { is_moderator: 1 });
  return u;
}

async function signedIn(u: TestUser): Promise<FormClient> {
  const b = new FormClient(t.url);
  await b.signIn(u.username, u.password);
  return b;
}

const logOf = (targetId: number) =>
  db().selectFrom('moderation_actions').selectAll().where('target_user_id', '=', targetId).orderBy('id').execute();
const suspensionOf = (id: number) => db().selectFrom('user_suspensions').selectAll().where('user_id', '=', id).executeTakeFirst();
const login = (u: TestUser) => t.api.post('auth.php', { username: u.username, password: u.password });

/** Opens the account's page (for a fresh CSRF token) and posts an action on it. */
async function act(b: FormClient, userId: number, fields: Record<string, string>) {
  await b.get(`/admin/user.php?id=${userId}`);
  return b.post(`/admin/user.php?id=${userId}`, fields);
}

describe('Users: search and an account’s page', () => {
  it('finds accounts by the start of the username or the e-mail, paginated, and links each to its page', async () => {
    const mod = await withRole('moderator');
    const stamp = Math.random().toString(36).slice(2, 7);
    const alice = await aUser(t.api, { username: `zq${stamp}_alice`, email: `al_${stamp}@mail.test` });
    await aUser(t.api, { username: `zq${stamp}_bob` });
    const b = await signedIn(mod);

    const byName = await b.get(`/admin/users.php?q=zq${stamp}`);
    expect(byName.status).toBe(200);
    expect(text(byName.html)).toContain(`@zq${stamp}_alice`);
    expect(text(byName.html)).toContain(`@zq${stamp}_bob`);
    expect(byName.html).toContain(`href="/admin/user.php?id=${alice.id}"`);
    const byMail = await b.get(`/admin/users.php?q=AL_${stamp}`);
    expect(text(byMail.html)).toContain(`@zq${stamp}_alice`);
    expect(text(byMail.html)).not.toContain(`_bob`);
    // 50 a page: the first page of every account has a next page once there are more.
    for (let i = 0; i < 51; i++)
      await db()
        .insertInto('users')
        .values({
          username: `zz${stamp}${String(i).padStart(2, '0')}`,
          email: `zz${stamp}${i}@mail.test`,
          password_hash: '',
          created_at: '2026-01-01 00:00:00',
        } as never)
        .execute();
    const first = await b.get(`/admin/users.php?q=zz${stamp}`);
    expect(first.html).toContain(`page=2`);
    const second = await b.get(`/admin/users.php?q=zz${stamp}&page=2`);
    expect(text(second.html)).toContain(`@zz${stamp}50`);
    expect(text(second.html)).not.toContain(`@zz${stamp}00`);
  });

  it('shows counts, open sessions, sanctions and the reports about the account', async () => {
    const mod = await withRole('moderator');
    const [target, reporter] = [await aUser(t.api), await aUser(t.api)];
    const post = await aPost(t.api, target, { content: 'look at this' });
    await aReport(t.api, reporter, { post_id: post.id }, { reason: 'spam', description: 'bulk ads' });
    const b = await signedIn(mod);
    const page = await b.get(`/admin/user.php?id=${target.id}`);
    expect(page.status).toBe(200);
    const seen = text(page.html);
    expect(seen).toContain(target.email);
    expect(seen).toContain('1 posts · 0 followers · 0 following');
    expect(seen).toContain('Sessions');
    expect(seen).not.toContain('No open session');
    expect(seen).toContain('No warning, no ban');
    expect(seen).toContain('Reports about this account (1)');
    expect(seen).toContain('look at this');
    expect(seen).toContain('bulk ads');
    // A moderator suspends; deleting and resetting two-factor are the administrators'.
    expect(page.html).toContain('value="suspend"');
    expect(page.html).not.toContain('value="delete"');
    expect((await b.get('/admin/user.php?id=999999999')).status).toBe(404);
    expect((await b.get('/admin/user.php?id=abc')).status).toBe(400);
  });
});

describe('Users: refusals', () => {
  it('refuses a member who is not a moderator, with the 403 page, and changes nothing', async () => {
    const member = await aUser(t.api);
    const target = await aUser(t.api);
    const b = await signedIn(member);
    const list = await b.get('/admin/users.php');
    expect(list.status).toBe(403);
    expect(list.headers.get('content-type')).toMatch(/^text\/html/);
    expect(text(list.html)).toContain('not_moderator');
    expect((await b.get(`/admin/user.php?id=${target.id}`)).status).toBe(403);
    await b.get('/admin/tokens.php');
    const post = await b.post(`/admin/user.php?id=${target.id}`, { action: 'suspend', reason: 'no' });
    expect(post.status).toBe(403);
    expect(await suspensionOf(target.id)).toBeUndefined();
    // Nor are the links shown to them.
    expect((await b.get('/admin/tokens.php')).html).not.toContain('/admin/users.php');
  });

  it('refuses a moderator the administrators’ actions (delete, reset two-factor) with the 403 page', async () => {
    const mod = await withRole('moderator');
    const target = await aUser(t.api);
    const b = await signedIn(mod);
    const del = await act(b, target.id, { action: 'delete', confirm: 'yes' });
    expect(del.status).toBe(403);
    expect(text(del.html)).toContain('Only administrators delete accounts');
    const reset = await act(b, target.id, { action: 'reset_two_factor' });
    expect(reset.status).toBe(403);
    expect(text(reset.html)).toContain('not_admin');
    expect(
      (await db().selectFrom('users').select('deleted_at').where('id', '=', target.id).executeTakeFirstOrThrow()).deleted_at,
    ).toBeNull();
    expect(await logOf(target.id)).toEqual([]);
  });

  it('refuses an action without the CSRF token, or with a forged one', async () => {
    const mod = await withRole('moderator');
    const target = await aUser(t.api);
    const b = await signedIn(mod);
    await b.get(`/admin/user.php?id=${target.id}`);
    const missing = await b.post(`/admin/user.php?id=${target.id}`, { action: 'suspend', reason: 'spam', _csrf: null });
    expect(missing.status).toBe(403);
    expect(text(missing.html)).toContain('csrf_invalid');
    const forged = await b.post(`/admin/user.php?id=${target.id}`, { action: 'suspend', reason: 'spam', _csrf: 'forged' });
    expect(forged.status).toBe(403);
    expect(await suspensionOf(target.id)).toBeUndefined();
    expect(await logOf(target.id)).toEqual([]);
  });

  it('lets nobody act on their own account, on an administrator, or (as a moderator) on another moderator', async () => {
    const [mod, otherMod, admin] = [await withRole('moderator'), await withRole('moderator'), await withRole('admin')];
    const b = await signedIn(mod);
    expect(text((await act(b, mod.id, { action: 'suspend', reason: 'me' })).html)).toContain('own_account');
    expect((await act(b, admin.id, { action: 'suspend', reason: 'x' })).status).toBe(403);
    expect(text((await act(b, otherMod.id, { action: 'suspend', reason: 'x' })).html)).toContain('target_is_moderator');
    // An administrator may suspend a moderator.
    const a = await signedIn(admin);
    expect((await act(a, otherMod.id, { action: 'suspend', reason: 'compromised' })).status).toBe(303);
  });

  it('asks for a reason, and answers 409 on the page when the account already is suspended', async () => {
    const mod = await withRole('moderator');
    const target = await aUser(t.api);
    const b = await signedIn(mod);
    const empty = await act(b, target.id, { action: 'suspend', reason: '  ' });
    expect(empty.status).toBe(400);
    expect(text(empty.html)).toContain('say why the account is suspended');
    expect((await act(b, target.id, { action: 'suspend', reason: 'spam' })).status).toBe(303);
    const again = await act(b, target.id, { action: 'suspend', reason: 'spam' });
    expect(again.status).toBe(409);
    expect(text(again.html)).toContain('already suspended');
    expect((await act(b, target.id, { action: 'bogus' })).status).toBe(400);
  });
});

describe('Users: suspend and unsuspend', () => {
  it('ends the sessions, answers 403 suspended everywhere but login and sanctions, and lifts it', async () => {
    const mod = await withRole('moderator');
    const target = await aUser(t.api);
    const panel = await signedIn(target);
    const b = await signedIn(mod);
    const res = await act(b, target.id, { action: 'suspend', reason: 'Spam wave <b>bold</b>' });
    expect(res.status).toBe(303);
    expect(res.location).toBe(`/admin/user.php?id=${target.id}&done=suspend`);
    const page = await b.get(res.location!);
    expect(text(page.html)).toContain('The account is suspended and its sessions are ended');
    expect(page.html).toContain('Spam wave &lt;b&gt;bold&lt;/b&gt;');
    expect(text(page.html)).toContain('No open session');

    // The open session is over; a new login works, and its token is refused but for sanctions.
    expect((await t.api.get('users.php', { token: target.token })).status).toBe(401);
    expect((await panel.get('/admin/tokens.php')).status).toBe(303);
    const again = await login(target);
    expect(again.status).toBe(200);
    const token = again.body.token as string;
    const refused = await t.api.get('users.php', { token });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ success: false, code: 'suspended' });
    expect((await t.api.post('posts.php', { content: 'still here' }, { token })).body.code).toBe('suspended');
    // The app's ban screen tells them why (sanctions.php?type=mine is its only source).
    const own = await t.api.get('sanctions.php?type=mine', { token });
    expect(own.status).toBe(200);
    expect(own.body).toMatchObject({
      is_banned: true,
      ban: { reason: 'Suspended by the moderators: Spam wave <b>bold</b>', is_permanent: true, expires_at: null },
    });
    expect((await t.api.get('sanctions.php?type=all', { token })).status).toBe(403);
    // The admin panel refuses them too.
    const theirPanel = await signedIn(target);
    const refusedPanel = await theirPanel.get('/admin/tokens.php');
    expect(refusedPanel.status).toBe(403);
    expect(text(refusedPanel.html)).toContain('suspended');

    const list = await b.get(`/admin/users.php?q=${target.username}`);
    expect(text(list.html)).toContain('suspended');

    const lifted = await act(b, target.id, { action: 'unsuspend' });
    expect(lifted.status).toBe(303);
    expect((await t.api.get('users.php', { token })).status).toBe(200);
    expect((await t.api.get('sanctions.php?type=mine', { token })).body).toMatchObject({ is_banned: false, ban: null });
    expect(await suspensionOf(target.id)).toBeUndefined();
    expect((await act(b, target.id, { action: 'unsuspend' })).status).toBe(409);
    expect((await logOf(target.id)).map((l) => [l.action_type, l.moderator_id])).toEqual([
      ['suspend', mod.id],
      ['unsuspend', mod.id],
    ]);
    // The panel's log page, and the log as moderators.php?type=actions serves it to the app: each
    // line's reason says what happened.
    const logPage = text((await b.get('/admin/moderation_log.php')).html);
    expect(logPage).toContain(`suspend @${target.username} account suspended: Spam wave &lt;b&gt;bold&lt;/b&gt;`);
    expect(logPage).toContain(`unsuspend @${target.username} suspension lifted`);
    const actions = await t.api.get('moderators.php?type=actions', { token: mod.token });
    expect(actions.status).toBe(200);
    const mine = actions.body.actions.filter((a: { target_user_id: number }) => a.target_user_id === target.id);
    expect(mine.map((a: { action_type: string; reason: string }) => [a.action_type, a.reason])).toEqual([
      ['unsuspend', 'suspension lifted (it said: Spam wave <b>bold</b>)'],
      ['suspend', 'account suspended: Spam wave <b>bold</b>'],
    ]);
  });

  it('admits a normal account without asking the moderation context: the token lookup told it in the same read', async () => {
    const mod = await withRole('moderator');
    const [normal, target] = [await aUser(t.api), await aUser(t.api)];
    const admit = vi.spyOn(resolve(t.plaza.container, Moderation.SanctionService), 'admit');
    try {
      expect((await t.api.get('users.php', { token: normal.token })).status).toBe(200);
      expect(admit).not.toHaveBeenCalled();
      const b = await signedIn(mod);
      expect((await act(b, target.id, { action: 'suspend', reason: 'spam' })).status).toBe(303);
      const token = (await login(target)).body.token as string;
      expect((await t.api.get('users.php', { token })).body.code).toBe('suspended');
      // The panel's pages ask for every request (their session is read otherwise); the API asked once, for the suspended account.
      const asked = admit.mock.calls.map(([actor]) => actor.userId);
      expect(asked.filter((id) => id === target.id)).toHaveLength(1);
      expect(asked).not.toContain(normal.id);
    } finally {
      admit.mockRestore();
    }
  });

  it('suspends once when twenty clicks arrive at once: one change, one log line', async () => {
    const mod = await withRole('moderator');
    const target = await aUser(t.api);
    const b = await signedIn(mod);
    await b.get(`/admin/user.php?id=${target.id}`);
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => b.post(`/admin/user.php?id=${target.id}`, { action: 'suspend', reason: 'at once' })),
    );
    expect(answers.filter((r) => r.status === 303)).toHaveLength(1);
    expect(answers.filter((r) => r.status === 409)).toHaveLength(19);
    expect(await logOf(target.id)).toHaveLength(1);
    expect(await suspensionOf(target.id)).toMatchObject({ suspended_by: mod.id, reason: 'at once' });
  });
});

describe('Users: reset two-factor and delete (administrators)', () => {
  it('resets two-factor: off, recovery codes void, the owner mailed, logged; a second reset is 409', async () => {
    const admin = await withRole('admin');
    const target = await aUser(t.api);
    const totp = new OtplibTotp();
    const status = await t.api.get('two_factor.php', { token: target.token });
    const enabled = await t.api.post(
      'two_factor.php?action=enable',
      { code: await totp.current(status.body.secret, new Date()) },
      { token: target.token },
    );
    expect(enabled.status).toBe(200);
    const b = await signedIn(admin);
    const page = await b.get(`/admin/user.php?id=${target.id}`);
    expect(page.html).toContain('value="reset_two_factor"');

    const answers = await Promise.all(
      Array.from({ length: 5 }, () => b.post(`/admin/user.php?id=${target.id}`, { action: 'reset_two_factor' })),
    );
    expect(answers.filter((r) => r.status === 303)).toHaveLength(1);
    expect(answers.filter((r) => r.status === 409)).toHaveLength(4);
    const row = await db()
      .selectFrom('users')
      .select(['totp_enabled', 'totp_secret'])
      .where('id', '=', target.id)
      .executeTakeFirstOrThrow();
    expect(Number(row.totp_enabled)).toBe(0);
    expect(row.totp_secret).toBeNull();
    expect(await db().selectFrom('two_factor_recovery_codes').selectAll().where('user_id', '=', target.id).execute()).toEqual([]);
    await t.mailSettled();
    const mails = t.mailer.sent.filter((m) => m.to === target.email && m.subject.includes('reset by an administrator'));
    expect(mails).toHaveLength(1);
    expect(mails[0].text).toContain('turned two-factor authentication off');
    expect((await logOf(target.id)).map((l) => l.action_type)).toEqual(['reset_two_factor']);
    // The password alone signs in now.
    expect((await login(target)).body.token).toEqual(expect.any(String));
  });

  it('deletes with the account eraser: a tombstone, no sign-in, logged under the former username, once', async () => {
    const admin = await withRole('admin');
    const target = await aUser(t.api);
    await aPost(t.api, target, { content: 'bye' });
    const b = await signedIn(admin);
    const unconfirmed = await act(b, target.id, { action: 'delete' });
    expect(unconfirmed.status).toBe(400);
    await b.get(`/admin/user.php?id=${target.id}`);
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => b.post(`/admin/user.php?id=${target.id}`, { action: 'delete', confirm: 'yes' })),
    );
    expect(answers.filter((r) => r.status === 303)).toHaveLength(1);
    expect(answers.find((r) => r.status === 303)!.location).toBe('/admin/users.php?done=delete');
    // The others found the account gone (409 on the page, or the 404 page once it is a tombstone).
    expect(answers.filter((r) => r.status === 409 || r.status === 404)).toHaveLength(4);
    const row = await db().selectFrom('users').select(['username', 'deleted_at']).where('id', '=', target.id).executeTakeFirstOrThrow();
    expect(row.username).toBe(`deleted_${target.id}`);
    expect(row.deleted_at).not.toBeNull();
    expect(await db().selectFrom('posts').select('id').where('user_id', '=', target.id).execute()).toEqual([]);
    const gone = await login(target);
    expect(gone.body.success).toBe(false);
    expect(gone.body.token).toBeUndefined();
    const log = await logOf(target.id);
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({ action_type: 'delete_account', moderator_id: admin.id });
    expect(log[0].reason).toContain(`@${target.username}`);
    expect((await b.get(`/admin/user.php?id=${target.id}`)).status).toBe(404);
  });
});

describe('Reports', () => {
  it('shows the queue with the reported text, media and account, and resolves as reports.php does', async () => {
    const mod = await withRole('moderator');
    const [author, reporter] = [await aUser(t.api), await aUser(t.api)];
    const media = await uploadedMedia(t.api, author);
    const post = await aPost(t.api, author, { content: 'buy cheap pills', media: [media.url], media_type: 'image' });
    const onPost = await aReport(t.api, reporter, { post_id: post.id }, { reason: 'spam', description: 'an ad' });
    const onAccount = await aReport(t.api, reporter, { user_id: author.id }, { reason: 'harassment' });
    const b = await signedIn(mod);
    const queue = await b.get('/admin/reports.php');
    expect(queue.status).toBe(200);
    const seen = text(queue.html);
    expect(seen).toContain(`Report #${onPost.id}`);
    expect(seen).toContain('buy cheap pills');
    expect(seen).toContain('an ad');
    expect(queue.html).toContain(`src="/uploads/posts/${media.filename}"`);
    expect(seen).toContain(`Report #${onAccount.id}`);
    expect(queue.html).toContain(`href="/admin/user.php?id=${author.id}"`);

    // A vote counts (two resolve here); a decision alone resolves at once.
    const voted = await b.post('/admin/reports.php?status=pending', { report_id: String(onPost.id), vote: 'remove' });
    expect(voted.status).toBe(303);
    expect(voted.location).toContain('done=voted');
    expect(
      await db()
        .selectFrom('report_votes')
        .select('vote')
        .where('report_id', '=', onPost.id)
        .where('voter_id', '=', mod.id)
        .executeTakeFirst(),
    ).toEqual({ vote: 'remove' });
    await b.get('/admin/reports.php');
    const decided = await b.post('/admin/reports.php?status=pending', {
      report_id: String(onAccount.id),
      moderator_action: 'warn_user',
      reason: 'Be kind',
    });
    expect(decided.status).toBe(303);
    const account = await db().selectFrom('reports').selectAll().where('id', '=', onAccount.id).executeTakeFirstOrThrow();
    expect(account).toMatchObject({ status: 'resolved', resolution: 'warn', resolved_by: mod.id });
    expect(await db().selectFrom('user_warnings').select('reason').where('user_id', '=', author.id).execute()).toEqual([
      { reason: 'Be kind' },
    ]);
    expect((await logOf(author.id)).map((l) => [l.action_type, l.report_id])).toEqual([['warning', onAccount.id]]);
    const resolved = await b.get('/admin/reports.php?status=resolved');
    expect(text(resolved.html)).toContain(`Report #${onAccount.id}`);
    // Through the API the same report is resolved.
    const api = await t.api.get('reports.php?status=resolved', { token: mod.token });
    expect(api.body.reports.find((r: { id: number }) => r.id === onAccount.id)).toMatchObject({ status: 'resolved', resolution: 'warn' });
  });

  it('refuses a member who is not a moderator, a report about oneself, a wrong form and a missing CSRF token', async () => {
    const [member, mod, reporter] = [await aUser(t.api), await withRole('moderator'), await aUser(t.api)];
    const report = await aReport(t.api, reporter, { user_id: mod.id });
    const m = await signedIn(member);
    expect((await m.get('/admin/reports.php')).status).toBe(403);
    await m.get('/admin/tokens.php');
    expect((await m.post('/admin/reports.php', { report_id: String(report.id), moderator_action: 'warn_user' })).status).toBe(403);
    const b = await signedIn(mod);
    await b.get('/admin/reports.php');
    const own = await b.post('/admin/reports.php', { report_id: String(report.id), moderator_action: 'warn_user' });
    expect(own.status).toBe(403);
    expect(text(own.html)).toContain('own_case');
    expect((await b.post('/admin/reports.php', { report_id: String(report.id), vote: 'maybe' })).status).toBe(400);
    expect((await b.post('/admin/reports.php', { report_id: 'x', vote: 'keep' })).status).toBe(400);
    expect((await b.post('/admin/reports.php', { report_id: String(report.id), vote: 'keep', _csrf: null })).status).toBe(403);
    expect(await db().selectFrom('reports').select('status').where('id', '=', report.id).executeTakeFirstOrThrow()).toEqual({
      status: 'pending',
    });
  });

  it('resolves once when twenty moderators’ clicks arrive at once: one decision, one warning, one log line', async () => {
    const mod = await withRole('moderator');
    const [author, reporter] = [await aUser(t.api), await aUser(t.api)];
    const post = await aPost(t.api, author, { content: 'nasty' });
    const report = await aReport(t.api, reporter, { post_id: post.id });
    const b = await signedIn(mod);
    await b.get('/admin/reports.php');
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => b.post('/admin/reports.php', { report_id: String(report.id), moderator_action: 'delete_post' })),
    );
    expect(answers.filter((r) => r.status === 303)).toHaveLength(1);
    expect(answers.filter((r) => r.status === 409)).toHaveLength(19);
    expect(text(answers.find((r) => r.status === 409)!.html)).toContain('already resolved');
    expect(await logOf(author.id)).toHaveLength(1);
    expect(await db().selectFrom('user_warnings').select('id').where('user_id', '=', author.id).execute()).toHaveLength(1);
    expect(await db().selectFrom('posts').select('id').where('id', '=', post.id).execute()).toEqual([]);
  });
});
