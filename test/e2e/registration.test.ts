import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FormClient, text } from '../support/form-client.js';
import { aUser, type TestUser } from '../support/mothers.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { aStaffMember, freshAccount } from '../support/registration.js';

/**
 * Registration under the operator's control (issue 26 item 3, docs/decisions/0104), over HTTP: each
 * mode of API_REGISTRATION and API_REGISTRATION_EMAIL_CONFIRM on a server of its own, with the admin
 * panel's sign-ups and invitations driven as forms (the Chromium walk is admin-registrations.test.ts).
 */

async function panel(t: TestServer, u: TestUser): Promise<FormClient> {
  const b = new FormClient(t.url);
  await b.signIn(u.username, u.password);
  return b;
}

const login = (t: TestServer, who: { username: string; password: string }) =>
  t.api.post('auth.php', { username: who.username, password: who.password });

async function actionLog(t: TestServer, moderator: TestUser) {
  const res = await t.api.get('moderators.php?type=actions', { token: moderator.token });
  expect(res.status).toBe(200);
  return res.body.actions as { action_type: string; target_user_id: number; reason: string; moderator_id: number }[];
}

describe('API_REGISTRATION=open (the default)', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(() => t?.close());

  it('registers and signs in at once, publishes the mode in settings.php and ignores an invitation code', async () => {
    const who = freshAccount('open');
    const res = await t.api.post('auth.php?action=register', { ...who, invite_code: 'whatever' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, message: 'Account created', awaiting: [] });
    expect((await login(t, who)).body.token).toBeTruthy();
    const settings = await t.api.get('settings.php');
    expect(settings.body).toMatchObject({
      registration: 'open',
      registration_email_confirm: false,
      push_provider: expect.any(String),
      ice_servers: expect.any(Array),
    });
  });

  it('sends nothing on resend_confirmation when confirmation is off, and answers as always', async () => {
    const u = await aUser(t.api);
    await t.mailSettled();
    const before = t.mailer.sent.length;
    const res = await t.api.post('auth.php?action=resend_confirmation', { email: u.email });
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    await t.mailSettled();
    expect(t.mailer.sent.length).toBe(before);
  });
});

describe('API_REGISTRATION=closed', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ env: { API_REGISTRATION: 'closed' } });
  });
  afterAll(() => t?.close());

  it('refuses every registration with 200, success false, registration_closed and a message; accounts of before still sign in', async () => {
    const who = freshAccount('closed');
    const res = await t.api.post('auth.php?action=register', who);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      success: false,
      code: 'registration_closed',
      message: expect.stringMatching(/closed/i),
      error: expect.any(String),
    });
    expect(await t.database.db.selectFrom('users').select('id').where('username', '=', who.username).executeTakeFirst()).toBeUndefined();
    // Malformed input is still a 400, as in every mode.
    expect((await t.api.post('auth.php?action=register', { username: who.username })).status).toBe(400);
    const admin = await aStaffMember(t, 'is_admin');
    expect((await login(t, admin)).body.token).toBeTruthy();
    expect((await t.api.get('settings.php')).body).toMatchObject({ registration: 'closed', registration_email_confirm: false });
  });
});

describe('API_REGISTRATION=approval', () => {
  let t: TestServer;
  let admin: TestUser;
  beforeAll(async () => {
    t = await startTestServer({ env: { API_REGISTRATION: 'approval' } });
    admin = await aStaffMember(t, 'is_admin');
  });
  afterAll(() => t?.close());

  async function applicant() {
    const who = freshAccount('appl');
    const res = await t.api.post('auth.php?action=register', { ...who, cause: 'Gardening' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, awaiting: ['approval'], message: expect.stringMatching(/administrator/) });
    return { ...who, id: res.body.user_id as number };
  }

  it('creates the account, which cannot sign in until approved: 200, success false, approval_pending', async () => {
    const a = await applicant();
    const refused = await login(t, a);
    expect(refused.status).toBe(200);
    expect(refused.body).toEqual({
      success: false,
      code: 'approval_pending',
      error: expect.any(String),
      message: expect.stringMatching(/approval/),
    });
    // A wrong password says nothing about the account's state.
    expect((await t.api.post('auth.php', { username: a.username, password: 'not the password' })).body.code).toBe('invalid_credentials');
    expect((await t.api.get('settings.php')).body.registration).toBe('approval');
  });

  it('lets an administrator approve in the panel: the applicant is mailed and signs in; the log has the line', async () => {
    const a = await applicant();
    const b = await panel(t, admin);
    const page = await b.get('/admin/registrations.php');
    expect(page.status).toBe(200);
    expect(text(page.html)).toContain(`@${a.username}`);
    expect(text(page.html)).toContain('Gardening');
    const done = await b.post('/admin/registrations.php', { action: 'approve', user_id: String(a.id) });
    expect(done.status).toBe(303);
    expect(done.location).toBe('/admin/registrations.php?done=approve');
    expect((await login(t, a)).body.token).toBeTruthy();
    await t.mailSettled();
    expect(t.mailer.sent.findLast((m) => m.to === a.email)?.subject).toMatch(/approved/);
    const line = (await actionLog(t, admin)).find((l) => l.target_user_id === a.id);
    expect(line).toMatchObject({ action_type: 'approve_signup', moderator_id: admin.id, reason: expect.stringContaining(a.username) });
    // Decided already: a second approval is refused and changes nothing.
    const again = await b.post('/admin/registrations.php', { action: 'approve', user_id: String(a.id) });
    expect(again.status).toBe(409);
    expect(text(again.html)).toContain('not waiting for a decision');
  });

  it('rejects: the account is deleted (its name free again), the applicant is told why, the log has the line', async () => {
    const a = await applicant();
    const b = await panel(t, admin);
    await b.get('/admin/registrations.php');
    const done = await b.post('/admin/registrations.php', { action: 'reject', user_id: String(a.id), reason: 'Spam account' });
    expect(done.status).toBe(303);
    expect((await login(t, a)).body).toMatchObject({ success: false, code: 'invalid_credentials' });
    const row = await t.database.db.selectFrom('users').select(['username', 'deleted_at']).where('id', '=', a.id).executeTakeFirstOrThrow();
    expect(row.deleted_at).not.toBeNull();
    expect(row.username).toBe(`deleted_${a.id}`);
    // The eraser forgets the hold with the rest (registration's account-data part).
    expect(
      await t.database.db.selectFrom('account_holds').select('user_id').where('user_id', '=', a.id).executeTakeFirst(),
    ).toBeUndefined();
    await t.mailSettled();
    const mail = t.mailer.sent.findLast((m) => m.to === a.email)!;
    expect(mail.subject).toMatch(/not accepted/);
    expect(mail.text).toContain('Spam account');
    expect((await actionLog(t, admin)).find((l) => l.target_user_id === a.id)).toMatchObject({
      action_type: 'reject_signup',
      reason: expect.stringContaining('Spam account'),
    });
    expect(text((await b.get('/admin/registrations.php')).html)).not.toContain(`@${a.username}`);
    // The same name and address register again.
    expect((await t.api.post('auth.php?action=register', a)).body.success).toBe(true);
  });

  it('lets a moderator decide, but not a plain user; a form without its CSRF token changes nothing', async () => {
    const a = await applicant();
    const plain = await aStaffMember(t, 'is_admin');
    await t.database.db.updateTable('users').set({ is_admin: 0 }).where('id', '=', plain.id).execute();
    const p = await panel(t, plain);
    expect((await p.get('/admin/registrations.php')).status).toBe(403);
    expect((await p.post('/admin/registrations.php', { action: 'approve', user_id: String(a.id) })).status).toBe(403);
    expect((await login(t, a)).body.code).toBe('approval_pending');

    const mod = await aStaffMember(t, 'is_moderator');
    const m = await panel(t, mod);
    const page = await m.get('/admin/registrations.php');
    expect(page.status).toBe(200);
    expect(page.html).toContain('href="/admin/registrations.php"');
    // Invitations are the administrators': no link, and the page refuses.
    expect(page.html).not.toContain('href="/admin/invitations.php"');
    expect((await m.get('/admin/invitations.php')).status).toBe(403);
    expect((await m.post('/admin/registrations.php', { action: 'approve', user_id: String(a.id), _csrf: null })).status).toBe(403);
    expect((await login(t, a)).body.code).toBe('approval_pending');
    expect((await m.post('/admin/registrations.php', { action: 'approve', user_id: String(a.id) })).status).toBe(303);
    expect((await login(t, a)).body.token).toBeTruthy();
  });

  it('answers bad panel input with an error page and changes nothing', async () => {
    const b = await panel(t, admin);
    await b.get('/admin/registrations.php');
    expect((await b.post('/admin/registrations.php', { action: 'approve', user_id: 'x' })).status).toBe(400);
    expect((await b.post('/admin/registrations.php', { action: 'promote', user_id: '1' })).status).toBe(400);
    expect((await b.post('/admin/registrations.php', { action: 'approve', user_id: '99999999' })).status).toBe(404);
    // An account that never waited (the administrator) is not a pending registration.
    expect((await b.post('/admin/registrations.php', { action: 'reject', user_id: String(admin.id) })).status).toBe(409);
    expect((await login(t, admin)).body.token).toBeTruthy();
  });

  it('decides a registration once when two administrators approve and reject it at the same time', async () => {
    const a = await applicant();
    const [one, two] = await Promise.all([panel(t, admin), panel(t, await aStaffMember(t, 'is_admin'))]);
    await Promise.all([one.get('/admin/registrations.php'), two.get('/admin/registrations.php')]);
    const results = await Promise.all([
      one.post('/admin/registrations.php', { action: 'approve', user_id: String(a.id) }),
      two.post('/admin/registrations.php', { action: 'reject', user_id: String(a.id) }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([303, 409]);
    const decided = (await actionLog(t, admin)).filter((l) => l.target_user_id === a.id);
    expect(decided).toHaveLength(1);
  });
});

describe('API_REGISTRATION=invite', () => {
  let t: TestServer;
  let admin: TestUser;
  beforeAll(async () => {
    t = await startTestServer({ env: { API_REGISTRATION: 'invite' } });
    admin = await aStaffMember(t, 'is_admin');
  });
  afterAll(() => t?.close());

  async function invitation(uses: number, days: string = '7'): Promise<{ code: string; id: number }> {
    const b = await panel(t, admin);
    await b.get('/admin/invitations.php');
    const res = await b.post('/admin/invitations.php', { action: 'create', max_uses: String(uses), expires_in_days: days });
    expect(res.status, text(res.html).slice(0, 300)).toBe(200);
    const code = /id="new-code">([^<]+)</.exec(res.html)?.[1];
    const id = /Invitation #(\d+)/.exec(text(res.html))?.[1];
    expect(code).toMatch(/^[\w-]{16}$/);
    return { code: code!, id: Number(id) };
  }

  const register = (who: ReturnType<typeof freshAccount>, invite_code?: string) =>
    t.api.post('auth.php?action=register', { ...who, ...(invite_code === undefined ? {} : { invite_code }) });

  it('refuses a missing or unknown code with 200, success false and its code', async () => {
    for (const [code, expected] of [
      [undefined, 'invite_required'],
      ['', 'invite_required'],
      ['not-a-real-code-x', 'invalid_invite_code'],
    ] as const) {
      const who = freshAccount('inv');
      const res = await register(who, code);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ success: false, code: expected, message: expect.any(String), details: [{ field: 'invite_code' }] });
      expect((await login(t, who)).body.code).toBe('invalid_credentials');
    }
    expect((await t.api.get('settings.php')).body.registration).toBe('invite');
  });

  it('admits as many registrations as the code has uses, then answers invite_used_up; the panel shows the uses left', async () => {
    const { code, id } = await invitation(2);
    const [a, b, c] = [freshAccount('inv'), freshAccount('inv'), freshAccount('inv')];
    expect((await register(a, code)).body).toMatchObject({ success: true, awaiting: [] });
    expect((await login(t, a)).body.token).toBeTruthy();
    // A registration refused for its own reasons spends no use.
    expect((await register({ ...b, username: a.username }, code)).body.code).toBe('username_taken');
    expect((await register(b, code)).body.success).toBe(true);
    expect((await register(c, code)).body).toMatchObject({ success: false, code: 'invite_used_up' });
    const page = await (await panel(t, admin)).get('/admin/invitations.php');
    const row = new RegExp(`data-invitation="${id}"[\\s\\S]*?</tr>`).exec(page.html)![0];
    expect(text(row)).toContain('0 of 2');
    expect(text(row)).toContain('used up');
    expect(page.html).not.toContain(code);
    const log = await actionLog(t, admin);
    expect(log.find((l) => l.action_type === 'create_invite' && l.reason.includes(`#${id} `))).toMatchObject({
      moderator_id: admin.id,
      target_user_id: admin.id,
    });
  });

  it('refuses an expired code with invite_expired and a revoked one with invalid_invite_code', async () => {
    const expiring = await invitation(5, '1');
    await t.database.db
      .updateTable('registration_invitations')
      .set({ expires_at: '2020-01-01 00:00:00' })
      .where('id', '=', expiring.id)
      .execute();
    expect((await register(freshAccount('inv'), expiring.code)).body).toMatchObject({ success: false, code: 'invite_expired' });

    const revoked = await invitation(5, '');
    const b = await panel(t, admin);
    await b.get('/admin/invitations.php');
    const res = await b.post('/admin/invitations.php', { action: 'revoke', invitation_id: String(revoked.id) });
    expect(res.status).toBe(303);
    expect((await register(freshAccount('inv'), revoked.code)).body).toMatchObject({ success: false, code: 'invalid_invite_code' });
    expect((await b.post('/admin/invitations.php', { action: 'revoke', invitation_id: String(revoked.id) })).status).toBe(404);
    expect((await actionLog(t, admin)).find((l) => l.action_type === 'revoke_invite')?.reason).toContain(`#${revoked.id}`);
  });

  it('answers bad invitation forms with a 400 page and creates nothing', async () => {
    const b = await panel(t, admin);
    await b.get('/admin/invitations.php');
    const before = await t.database.db
      .selectFrom('registration_invitations')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    for (const [uses, days] of [
      ['0', '7'],
      ['abc', '7'],
      ['100001', '7'],
      ['1', '-3'],
      ['1', '99999'],
    ]) {
      const res = await b.post('/admin/invitations.php', { action: 'create', max_uses: uses, expires_in_days: days });
      expect(res.status, `${uses} ${days}`).toBe(400);
      expect(res.html).not.toContain('id="new-code"');
    }
    expect((await b.post('/admin/invitations.php', { action: 'create', max_uses: '1', expires_in_days: '7', _csrf: null })).status).toBe(
      403,
    );
    const after = await t.database.db
      .selectFrom('registration_invitations')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });

  it('creates exactly one account when 20 registrations race for a code of one use', async () => {
    const { code, id } = await invitation(1);
    const people = Array.from({ length: 20 }, () => freshAccount('race'));
    const results = await Promise.all(people.map((who) => register(who, code)));
    expect(results.map((r) => r.status)).toEqual(Array(20).fill(200));
    const won = results.filter((r) => r.body.success === true);
    expect(won).toHaveLength(1);
    expect(results.filter((r) => r.body.success === false).map((r) => r.body.code)).toEqual(Array(19).fill('invite_used_up'));
    const created = await t.database.db
      .selectFrom('users')
      .select('id')
      .where(
        'username',
        'in',
        people.map((p) => p.username),
      )
      .execute();
    expect(created).toHaveLength(1);
    const row = await t.database.db.selectFrom('registration_invitations').select('uses').where('id', '=', id).executeTakeFirstOrThrow();
    expect(Number(row.uses)).toBe(1);
  });
});

describe('API_REGISTRATION_EMAIL_CONFIRM=true', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ env: { API_REGISTRATION_EMAIL_CONFIRM: 'true' } });
  });
  afterAll(() => t?.close());

  async function registered() {
    const who = freshAccount('conf');
    const res = await t.api.post('auth.php?action=register', who);
    expect(res.body).toMatchObject({
      success: true,
      awaiting: ['email_confirmation'],
      message: expect.stringMatching(/confirm your e-mail/),
    });
    await t.mailSettled();
    return who;
  }

  const linkOf = (email: string) => {
    const mail = t.mailer.sent.findLast((m) => m.to === email)!;
    expect(mail.subject).toMatch(/confirm your e-mail address/);
    const url = /http:\/\/plaza\.test(\/api\/v1\/auth\.php\?action=confirm_email&token=[\w%-]+)/.exec(mail.text)![1];
    return url.replace('/api/v1/', '');
  };

  it('refuses login with email_unconfirmed until the mailed link is followed, which works once', async () => {
    const who = await registered();
    const refused = await login(t, who);
    expect(refused.status).toBe(200);
    expect(refused.body).toEqual({
      success: false,
      code: 'email_unconfirmed',
      error: expect.any(String),
      message: expect.stringMatching(/confirm/i),
    });
    const link = linkOf(who.email);
    const confirmed = await t.api.get(link);
    expect(confirmed.status).toBe(200);
    expect(confirmed.body).toMatchObject({ success: true, awaiting: [], message: expect.stringMatching(/confirmed/) });
    expect((await login(t, who)).body.token).toBeTruthy();
    const again = await t.api.get(link);
    expect(again.status).toBe(400);
    expect(again.body).toMatchObject({ success: false, code: 'invalid_confirmation_token' });
    expect((await t.api.get('auth.php?action=confirm_email&token=nonsense')).status).toBe(400);
    expect((await t.api.get('auth.php?action=confirm_email')).status).toBe(400);
    expect((await t.api.get('settings.php')).body).toMatchObject({ registration: 'open', registration_email_confirm: true });
  });

  it('mails a new link on resend_confirmation, with the same answer for an unknown or confirmed address', async () => {
    const who = await registered();
    const first = linkOf(who.email);
    // A link was mailed moments ago: asking again sends nothing (an inbox cannot be flooded), same answer.
    const sentBefore = t.mailer.sent.length;
    expect((await t.api.post('auth.php?action=resend_confirmation', { email: who.email })).body.success).toBe(true);
    await t.mailSettled();
    expect(t.mailer.sent.length).toBe(sentBefore);
    const { id } = await t.database.db.selectFrom('users').select('id').where('username', '=', who.username).executeTakeFirstOrThrow();
    await t.database.db.updateTable('email_confirmations').set({ created_at: '2020-01-01 00:00:00' }).where('user_id', '=', id).execute();
    const answers = [];
    for (const email of [who.email.toUpperCase(), 'nobody-here@example.test']) {
      const res = await t.api.post('auth.php?action=resend_confirmation', { email });
      answers.push(res.body);
    }
    expect(answers[0]).toEqual(answers[1]);
    await t.mailSettled();
    const second = linkOf(who.email);
    expect(second).not.toBe(first);
    expect(t.mailer.sent.filter((m) => m.to === 'nobody-here@example.test')).toHaveLength(0);
    expect((await t.api.get(second)).status).toBe(200);
    const count = t.mailer.sent.length;
    const confirmedAnswer = await t.api.post('auth.php?action=resend_confirmation', { email: who.email });
    expect(confirmedAnswer.body).toEqual(answers[1]);
    await t.mailSettled();
    expect(t.mailer.sent.length).toBe(count);
    // The first link still works once (it was never used): it changes nothing more.
    expect((await t.api.get(first)).status).toBe(200);
    expect((await t.api.post('auth.php?action=resend_confirmation', {})).status).toBe(400);
  });

  it('refuses an expired link', async () => {
    const who = await registered();
    const link = linkOf(who.email);
    await t.database.db
      .updateTable('email_confirmations')
      .set({ expires_at: '2020-01-01 00:00:00' })
      .where('used_at', 'is', null)
      .execute();
    expect((await t.api.get(link)).body.code).toBe('invalid_confirmation_token');
    expect((await login(t, who)).body.code).toBe('email_unconfirmed');
  });
});

describe('API_REGISTRATION=approval with API_REGISTRATION_EMAIL_CONFIRM=true', () => {
  let t: TestServer;
  let admin: TestUser;
  beforeAll(async () => {
    t = await startTestServer({ env: { API_REGISTRATION: 'approval', API_REGISTRATION_EMAIL_CONFIRM: 'true' } });
    admin = await aStaffMember(t, 'is_admin');
  });
  afterAll(() => t?.close());

  it('asks for the e-mail first, then the approval, and the panel shows whether the address is confirmed', async () => {
    const who = freshAccount('both');
    const res = await t.api.post('auth.php?action=register', who);
    expect(res.body.awaiting).toEqual(['email_confirmation', 'approval']);
    expect((await login(t, who)).body.code).toBe('email_unconfirmed');
    const b = await panel(t, admin);
    const row = () =>
      b.get('/admin/registrations.php').then((p) => text(new RegExp(`data-user="${who.username}"[\\s\\S]*?</tr>`).exec(p.html)![0]));
    expect(await row()).toContain('not confirmed yet');
    await t.mailSettled();
    const mail = t.mailer.sent.findLast((m) => m.to === who.email)!;
    const link = /\/api\/v1\/(auth\.php\?action=confirm_email&token=[\w%-]+)/.exec(mail.text)![1];
    const confirmed = await t.api.get(link);
    expect(confirmed.body).toMatchObject({ success: true, awaiting: ['approval'], message: expect.stringMatching(/administrator/) });
    expect((await login(t, who)).body.code).toBe('approval_pending');
    expect(await row()).not.toContain('not confirmed');
    await b.post('/admin/registrations.php', { action: 'approve', user_id: String(res.body.user_id) });
    expect((await login(t, who)).body.token).toBeTruthy();
  });
});
