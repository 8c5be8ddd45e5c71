import { OtplibTotp } from '@plaza/adapters-integrations';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdminBrowser, chromiumSkipped, DESKTOP, hasChromium, PHONE, shot, signIn, warnIfNoChromium } from '../support/admin-browser.js';
import { aPost, aReport, aUser, type TestUser } from '../support/mothers.js';
import { startTestServer, type TestServer } from '../support/server.js';

/**
 * Instance moderation in headless Chromium (Debian's, driven by playwright-core; docs/decisions/0105):
 * a moderator searches a user, suspends them (their API requests answer 403 `suspended`) and lifts it,
 * an administrator resets a user's two-factor, and a moderator resolves a report. Screenshots of each
 * page go to test-artifacts/admin/ (gitignored), at phone and desktop sizes.
 */
warnIfNoChromium('admin-moderation.test.ts');

let t: TestServer;
const browser = new AdminBrowser();

describe.skipIf(!hasChromium)(`instance moderation in Chromium${chromiumSkipped}`, () => {
  beforeAll(async () => {
    [t] = await Promise.all([startTestServer(), browser.launch()]);
  });
  afterAll(async () => {
    await browser.close();
    await t?.close();
  });

  const openPage = (viewport = DESKTOP) => browser.openPage(t.url, viewport);

  async function withRole(role: 'admin' | 'moderator'): Promise<TestUser> {
    const u = await aUser(t.api);
    await t.database.db
      .updateTable('users')
      .set(role === 'admin' ? { is_admin: 1 } : { is_moderator: 1 })
      .where('id', '=', u.id)
      .execute();
    return u;
  }

  it('searches a user, suspends them (their API requests answer 403 suspended) and lifts the suspension', async () => {
    const mod = await withRole('moderator');
    const target = await aUser(t.api);
    const page = await openPage();
    await signIn(page, mod, '/admin/users.php');
    expect(await page.textContent('h1')).toBe('Users');
    await page.fill('#q', target.username);
    await page.click('button:has-text("Search")');
    expect(await page.locator('tbody tr').count()).toBe(1);
    await shot(page, 'users-search-desktop');
    await page.click(`a:has-text("@${target.username}")`);
    expect(new URL(page.url()).pathname).toBe('/admin/user.php');
    expect(await page.textContent('#two-factor')).toBe('off');
    await shot(page, 'user-desktop');

    await page.fill('#reason', 'Spam wave');
    await page.click('button:has-text("Suspend")');
    expect(await page.textContent('.alert.success')).toContain('The account is suspended');
    expect(await page.textContent('#suspension')).toContain('Spam wave');
    await shot(page, 'user-suspended');
    // Their session is over; signing in again gives a token that is refused with 403 `suspended`.
    expect((await t.api.get('users.php', { token: target.token })).status).toBe(401);
    const again = await t.api.post('auth.php', { username: target.username, password: target.password });
    const refused = await t.api.get('users.php', { token: again.body.token });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('suspended');

    await page.click('button:has-text("Lift the suspension")');
    expect(await page.textContent('.alert.success')).toContain('The suspension is lifted');
    expect((await t.api.get('users.php', { token: again.body.token })).status).toBe(200);

    const phone = await openPage(PHONE);
    await signIn(phone, mod, `/admin/user.php?id=${target.id}`);
    await shot(phone, 'user-phone');
  });

  it('lets an administrator reset a user’s two-factor; the owner is mailed', async () => {
    const admin = await withRole('admin');
    const target = await aUser(t.api);
    const totp = new OtplibTotp();
    const status = await t.api.get('two_factor.php', { token: target.token });
    expect(
      (
        await t.api.post(
          'two_factor.php?action=enable',
          { code: await totp.current(status.body.secret, new Date()) },
          { token: target.token },
        )
      ).status,
    ).toBe(200);

    const page = await openPage();
    await signIn(page, admin, `/admin/user.php?id=${target.id}`);
    expect(await page.textContent('#two-factor')).toBe('on');
    await page.click('button:has-text("Reset two-factor")');
    expect(await page.textContent('.alert.success')).toContain('Two-factor authentication is off');
    expect(await page.textContent('#two-factor')).toBe('off');
    await shot(page, 'user-two-factor-reset');
    await t.mailSettled();
    expect(t.mailer.sent.filter((m) => m.to === target.email && m.subject.includes('reset by an administrator'))).toHaveLength(1);
    expect((await t.api.get('two_factor.php', { token: target.token })).body.enabled).toBe(false);
  });

  it('gives a moderator the 403 page for an administrators’ action', async () => {
    const mod = await withRole('moderator');
    const target = await aUser(t.api);
    // Scripts stay off; the moderator forges the form the page does not offer them.
    const page = await openPage(PHONE);
    await signIn(page, mod, `/admin/user.php?id=${target.id}`);
    expect(await page.locator('button:has-text("Delete the account")').count()).toBe(0);
    const csrf = await page.locator('input[name=_csrf]').first().getAttribute('value');
    const response = await page.request.post(`/admin/user.php?id=${target.id}`, {
      form: { _csrf: csrf!, action: 'delete', confirm: 'yes' },
      maxRedirects: 0,
    });
    expect(response.status()).toBe(403);
    expect(await response.text()).toContain('Only administrators delete accounts');
  });

  it('resolves a report from the queue, which shows the reported post', async () => {
    const mod = await withRole('moderator');
    const [author, reporter] = [await aUser(t.api), await aUser(t.api)];
    const post = await aPost(t.api, author, { content: 'buy cheap pills now' });
    const report = await aReport(t.api, reporter, { post_id: post.id }, { reason: 'spam', description: 'an ad' });
    const page = await openPage();
    await signIn(page, mod, '/admin/reports.php');
    const card = page.locator(`#report-${report.id}`);
    expect(await card.textContent()).toContain('buy cheap pills now');
    await shot(page, 'reports-desktop');
    await card.locator('summary:has-text("Decide alone")').click();
    await card.locator('input[name=reason]').fill('No ads here');
    await card.locator('button:has-text("Remove the post and warn")').click();
    expect(await page.textContent('.alert.success')).toContain('The report is resolved');
    expect(await page.locator(`#report-${report.id}`).count()).toBe(0);
    expect((await t.api.get(`posts.php?id=${post.id}`, { token: reporter.token })).status).toBe(404);
    const row = await t.database.db
      .selectFrom('reports')
      .select(['status', 'resolution'])
      .where('id', '=', report.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ status: 'resolved', resolution: 'remove' });
    await page.goto('/admin/reports.php?status=resolved');
    expect(await page.locator(`#report-${report.id}`).textContent()).toContain('remove');
    // The decision is in the moderators' log.
    await page.click('nav a:has-text("Log")');
    const line = page.locator('#log tbody tr', { hasText: `report #${report.id}` });
    expect(await line.textContent()).toContain('delete_post');
    expect(await line.textContent()).toContain('No ads here');
    await shot(page, 'moderation-log-desktop');
    const phone = await openPage(PHONE);
    await signIn(phone, mod, '/admin/reports.php?status=resolved');
    await shot(phone, 'reports-phone');
  });
});
