import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdminBrowser, chromiumSkipped, DESKTOP, hasChromium, PHONE, shot, signIn, warnIfNoChromium } from '../support/admin-browser.js';
import { aUser, type TestUser } from '../support/mothers.js';
import { startTestServer, type TestServer } from '../support/server.js';

/**
 * The admin panel's Federation and Deliveries pages in headless Chromium (Debian's, driven by
 * playwright-core, as admin-panel.test.ts): block and unblock a domain, a refused domain, the
 * delivery queue's retry and discard, and what moderators and members see. Screenshots go to
 * test-artifacts/admin/ (gitignored). The federation itself is tested over HTTP against a Fedify
 * peer in federation-domain-blocks.test.ts.
 */
warnIfNoChromium('admin-federation.test.ts');

let t: TestServer;
const browser = new AdminBrowser();

describe.skipIf(!hasChromium)(`admin panel: federation, in Chromium${chromiumSkipped}`, () => {
  beforeAll(async () => {
    [t] = await Promise.all([startTestServer(), browser.launch()]);
  });

  afterAll(async () => {
    await browser.close();
    await t?.close();
  });

  const openPage = (viewport = DESKTOP) => browser.openPage(t.url, viewport);

  async function withRole(role: 'admin' | 'moderator' | null): Promise<TestUser> {
    const u = await aUser(t.api);
    if (role)
      await t.database.db
        .updateTable('users')
        .set(role === 'admin' ? { is_admin: 1 } : { is_moderator: 1 })
        .where('id', '=', u.id)
        .execute();
    return u;
  }

  const blocks = () => t.database.db.selectFrom('domain_blocks').selectAll().execute();

  it('an administrator blocks a domain from the navigation, is told why a bad one is refused, and unblocks it', async () => {
    const admin = await withRole('admin');
    const page = await openPage();
    await signIn(page, admin, '/admin/tokens.php');
    await Promise.all([page.waitForURL('**/admin/federation.php'), page.click('nav a:has-text("Federation")')]);
    expect(await page.textContent('h1')).toBe('Federation');
    expect(await page.textContent('#no-blocks')).toContain('No server is blocked');

    // A URL instead of a domain: the reason, the form kept, nothing stored.
    await page.fill('#domain', 'https://spam.example/');
    await page.fill('#reason', 'Spam wave');
    await page.click('button:has-text("Block")');
    expect(await page.textContent('.alert.error')).toContain('without http://');
    expect(await page.inputValue('#reason')).toBe('Spam wave');
    expect(await blocks()).toEqual([]);
    await shot(page, 'federation-refused');

    await page.fill('#domain', 'Spam.Example');
    await page.selectOption('#severity', 'silence');
    await page.click('button:has-text("Block")');
    expect(await page.textContent('.alert.success')).toContain('spam.example is blocked');
    expect(await page.textContent('#blocks tr[data-domain="spam.example"]')).toContain('silence');
    expect(await blocks()).toEqual([
      expect.objectContaining({ domain: 'spam.example', severity: 'silence', reason: 'Spam wave', created_by: admin.id }),
    ]);
    await shot(page, 'federation-blocked-desktop');
    const phone = await openPage(PHONE);
    await signIn(phone, admin, '/admin/federation.php');
    await shot(phone, 'federation-blocked-phone');

    await page.click('#blocks tr[data-domain="spam.example"] button:has-text("Unblock")');
    expect(await page.textContent('.alert.success')).toContain('spam.example is unblocked');
    expect(await blocks()).toEqual([]);

    await page.click('nav a:has-text("Log")');
    expect(await page.textContent('#log')).toContain('unblock_domain');
    expect(await page.textContent('#log')).toContain('spam.example silenced: Spam wave');
  });

  it('the delivery queue: a dead delivery is retried (it becomes failing, due now), then discarded', async () => {
    const admin = await withRole('admin');
    const inbox = 'https://down.example/inbox';
    const { insertId } = await t.database.db
      .insertInto('federation_queue')
      .values({
        channel: 'deliver',
        payload: JSON.stringify({
          user_id: admin.id,
          username: admin.username,
          inbox,
          activity: { type: 'Create', id: 'https://plaza.test/x#create' },
        }),
        attempts: 10,
        due_at: '2026-01-01 00:00:00',
        leased_until: null,
        last_error: 'HTTP 503 from https://down.example/inbox',
        dead_at: '2026-01-01 04:15:00',
      })
      .executeTakeFirstOrThrow();
    const id = Number(insertId);
    const page = await openPage();
    await signIn(page, admin, '/admin/deliveries.php?state=dead');
    const row = `#deliveries tr[data-delivery="${id}"]`;
    expect(await page.textContent(row)).toContain(inbox);
    expect(await page.textContent(row)).toContain('HTTP 503');
    expect(await page.textContent('#count-dead')).toBe('1');
    await shot(page, 'deliveries-dead');

    await page.click(`${row} button:has-text("Retry now")`);
    expect(await page.textContent('.alert.success')).toContain(`Delivery #${id} will be tried again now`);
    expect(await page.textContent('#count-dead')).toBe('0');
    expect(await page.textContent('#count-failing')).toBe('1');
    const retried = await t.database.db.selectFrom('federation_queue').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(retried).toMatchObject({ dead_at: null, attempts: 10, leased_until: null });

    await page.goto('/admin/deliveries.php?state=failing');
    await page.click(`${row} button:has-text("Discard")`);
    expect(await page.textContent('.alert.success')).toContain(`Delivery #${id} is discarded`);
    expect(await t.database.db.selectFrom('federation_queue').selectAll().where('id', '=', id).execute()).toEqual([]);
    await shot(page, 'deliveries-discarded');
  });

  it('a moderator reads both pages without their forms; a member gets the 403 page', async () => {
    await t.database.db
      .insertInto('domain_blocks')
      .values({
        domain: 'read-only.example',
        severity: 'suspend',
        reason: 'Seen by moderators',
        created_by: null,
        created_at: '2026-01-01 00:00:00',
      })
      .execute();
    const mod = await withRole('moderator');
    const page = await openPage();
    await signIn(page, mod, '/admin/federation.php');
    expect(await page.textContent('#blocks')).toContain('Seen by moderators');
    expect(await page.locator('#block-form').count()).toBe(0);
    expect(await page.locator('button:has-text("Unblock")').count()).toBe(0);
    expect(await page.textContent('main')).toContain('Only administrators block and unblock servers');
    await page.click('nav a:has-text("Deliveries")');
    expect(await page.textContent('h1')).toBe('Deliveries');
    await shot(page, 'federation-moderator');

    const member = await withRole(null);
    const other = await openPage();
    await signIn(other, member, '/admin/tokens.php');
    expect(await other.locator('nav a:has-text("Federation")').count()).toBe(0);
    const refused = await other.goto('/admin/federation.php');
    expect(refused?.status()).toBe(403);
    await t.database.db.deleteFrom('domain_blocks').where('domain', '=', 'read-only.example').execute();
  });
});
