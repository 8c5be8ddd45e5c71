import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdminBrowser, chromiumSkipped, DESKTOP, hasChromium, PHONE, shot, signIn, warnIfNoChromium } from '../support/admin-browser.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { aStaffMember, freshAccount } from '../support/registration.js';

/**
 * The admin panel's sign-ups and invitations (issue 26 items 3 and 4, docs/decisions/0104) in
 * headless Chromium, as admin-panel.test.ts drives the rest of the panel: one server with
 * API_REGISTRATION=approval, one with invite; screenshots under test-artifacts/admin/ (gitignored).
 */
warnIfNoChromium('admin-registrations.test.ts');

let approval: TestServer;
let invite: TestServer;
const browser = new AdminBrowser();

describe.skipIf(!hasChromium)(`admin panel sign-ups and invitations in Chromium${chromiumSkipped}`, () => {
  beforeAll(async () => {
    [approval, invite] = await Promise.all([
      startTestServer({ env: { API_REGISTRATION: 'approval' } }),
      startTestServer({ env: { API_REGISTRATION: 'invite' } }),
      browser.launch(),
    ]);
  });
  afterAll(async () => {
    await browser.close();
    await approval?.close();
    await invite?.close();
  });

  /** Two servers here, so a page is opened on the one named. */
  const openPage = (t: TestServer, viewport = DESKTOP) => browser.openPage(t.url, viewport);

  async function apply(cause: string) {
    const who = freshAccount('appl');
    const res = await approval.api.post('auth.php?action=register', { ...who, cause });
    expect(res.body).toMatchObject({ success: true, awaiting: ['approval'] });
    return { ...who, id: res.body.user_id as number };
  }

  const logIn = (t: TestServer, who: { username: string; password: string }) =>
    t.api.post('auth.php', { username: who.username, password: who.password });

  it('lets an administrator approve one applicant and reject another with a reason, at desktop and phone sizes', async () => {
    const admin = await aStaffMember(approval, 'is_admin');
    const [kept, refused] = [await apply('Community gardens'), await apply('Cheap watches')];
    const page = await openPage(approval);
    await signIn(page, admin);
    // The section's link in the navigation bar leads to the page.
    await Promise.all([page.waitForURL('**/admin/registrations.php'), page.click('nav a:has-text("Sign-ups")')]);
    expect(await page.textContent('h1')).toBe('Sign-ups');
    expect(await page.textContent('#mode')).toContain('needs approval');
    expect(await page.textContent(`tr[data-user="${kept.username}"]`)).toContain('Community gardens');
    await shot(page, 'registrations-desktop');
    const phone = await openPage(approval, PHONE);
    await signIn(phone, admin, '/admin/registrations.php');
    await shot(phone, 'registrations-phone');

    await Promise.all([
      page.waitForURL('**/admin/registrations.php?done=approve'),
      page.click(`tr[data-user="${kept.username}"] button:has-text("Approve")`),
    ]);
    expect(await page.textContent('.alert.success')).toContain('Approved');
    expect(await page.locator(`tr[data-user="${kept.username}"]`).count()).toBe(0);
    expect((await logIn(approval, kept)).body.token).toBeTruthy();

    // Rejecting asks for an optional reason behind a disclosure (no script on these pages).
    const row = page.locator(`tr[data-user="${refused.username}"]`);
    await row.locator('summary').click();
    await row.locator('input[name="reason"]').fill('Advertising only');
    await shot(page, 'registrations-reject');
    await Promise.all([
      page.waitForURL('**/admin/registrations.php?done=reject'),
      row.locator('button:has-text("Reject and delete the account")').click(),
    ]);
    expect(await page.textContent('.alert.success')).toContain('Rejected');
    expect(await page.textContent('main')).toContain('No registration is waiting');
    expect((await logIn(approval, refused)).body.code).toBe('invalid_credentials');
    await approval.mailSettled();
    expect(approval.mailer.sent.findLast((m) => m.to === refused.email)?.text).toContain('Advertising only');
    expect(approval.mailer.sent.findLast((m) => m.to === kept.email)?.subject).toMatch(/approved/);
  });

  it('shows a moderator the sign-ups but not the invitations, and a plain account neither', async () => {
    const applicant = await apply('Birdwatching');
    const mod = await aStaffMember(approval, 'is_moderator');
    const page = await openPage(approval);
    await signIn(page, mod);
    expect(await page.locator('nav a:has-text("Sign-ups")').count()).toBe(1);
    expect(await page.locator('nav a:has-text("Invitations")').count()).toBe(0);
    const refused = await page.goto('/admin/invitations.php');
    expect(refused?.status()).toBe(403);
    await page.goto('/admin/registrations.php');
    await Promise.all([
      page.waitForURL('**/admin/registrations.php?done=approve'),
      page.click(`tr[data-user="${applicant.username}"] button:has-text("Approve")`),
    ]);
    expect((await logIn(approval, applicant)).body.token).toBeTruthy();

    const plain = await aStaffMember(approval, 'is_moderator');
    await approval.database.db.updateTable('users').set({ is_moderator: 0 }).where('id', '=', plain.id).execute();
    const other = await openPage(approval);
    await signIn(other, plain);
    expect(await other.locator('nav a:has-text("Sign-ups")').count()).toBe(0);
    const forbidden = await other.goto('/admin/registrations.php');
    expect(forbidden?.status()).toBe(403);
    expect(await other.textContent('main')).toContain('Only moderators and administrators');
  });

  it('creates an invitation shown once, counts its uses as people register with it, and revokes it', async () => {
    const admin = await aStaffMember(invite, 'is_admin');
    const page = await openPage(invite);
    await signIn(page, admin);
    await Promise.all([page.waitForURL('**/admin/invitations.php'), page.click('nav a:has-text("Invitations")')]);
    expect(await page.textContent('#mode')).toContain('needs an invitation');
    // A refused form keeps what was typed and creates nothing.
    await page.fill('#max_uses', '0');
    await page.click('button:has-text("Create an invitation")');
    expect(await page.textContent('.alert.error')).toContain('max_uses');
    expect(await page.locator('#new-code').count()).toBe(0);

    await page.fill('#max_uses', '2');
    await page.fill('#expires_in_days', '3');
    await page.click('button:has-text("Create an invitation")');
    const code = (await page.textContent('#new-code'))!.trim();
    expect(code).toHaveLength(16);
    await shot(page, 'invitations-created');

    const first = freshAccount('guest');
    expect((await invite.api.post('auth.php?action=register', { ...first, invite_code: code })).body.success).toBe(true);
    expect((await logIn(invite, first)).body.token).toBeTruthy();
    await page.goto('/admin/invitations.php');
    const row = page.locator('#invitations tbody tr').first();
    expect(await row.textContent()).toContain('1 of 2');
    expect(await row.textContent()).toContain('live');
    // The code itself is never shown again: only its first characters.
    expect(await page.textContent('main')).not.toContain(code);
    expect(await row.textContent()).toContain(code.slice(0, 4));
    await shot(page, 'invitations-list');
    const phone = await openPage(invite, PHONE);
    await signIn(phone, admin, '/admin/invitations.php');
    await shot(phone, 'invitations-phone');

    await Promise.all([page.waitForURL('**/admin/invitations.php?revoked=*'), row.locator('button:has-text("Revoke")').click()]);
    expect(await page.textContent('.alert.success')).toContain('revoked');
    expect(await page.locator('#invitations tbody tr').first().textContent()).toContain('revoked');
    const late = await invite.api.post('auth.php?action=register', { ...freshAccount('guest'), invite_code: code });
    expect(late.body).toMatchObject({ success: false, code: 'invalid_invite_code' });
  });
});
